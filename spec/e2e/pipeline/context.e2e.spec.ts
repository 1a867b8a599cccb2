import 'reflect-metadata';
import {
  Complete,
  Context,
  Ctx,
  Inject,
  Injectable,
  McpModule,
  Module,
  Param,
  Prompt,
  Scope,
  Tool,
  ToolResult,
  UseInterceptors,
  createParamDecorator,
  text,
  CONTEXT,
  type CallHandler,
  type ExecutionContext,
  type McpInterceptor,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';

/** A custom parameter: the calling client's name, or one field of it. */
const Caller = createParamDecorator((field: 'name' | 'version' | undefined, context: ExecutionContext) => {
  const client = context.switchToRpc().getContext<Context>().client;
  return field ? client[field] : `${client.name}@${client.version}`;
});

const seen: Record<string, unknown>[] = [];

/** Records what an interceptor sees of the execution context. */
class Inspect implements McpInterceptor {
  intercept(context: ExecutionContext, next: CallHandler) {
    seen.push({
      type: context.getType(),
      class: context.getClass().name,
      handler: context.getHandler().name,
      data: context.switchToRpc().getData(),
      args0: context.getArgByIndex(0),
      isContext: context.getArgs()[1] instanceof Context && context.switchToRpc().getContext() === context.context,
      method: context.method,
      phase: context.phase,
      kind: context.kind,
      name: context.name,
      sessionId: context.sessionId,
      auth: context.auth,
    });
    return next.handle();
  }
}

/** Maps results and short-circuits, as Nest interceptors do. */
class Wrap implements McpInterceptor {
  async intercept(context: ExecutionContext, next: CallHandler<string>) {
    if (context.switchToRpc().getData<{ text?: string }>()?.text === 'skip') return 'short-circuited';
    return `[${await next.handle()}]`;
  }
}

/** A request-scoped interceptor with the request's Context injected. */
@Injectable({ scope: Scope.REQUEST })
class Stamp implements McpInterceptor {
  static built = 0;
  constructor(@Inject(CONTEXT) private readonly context: Context) {
    Stamp.built++;
  }
  async intercept(_execution: ExecutionContext, next: CallHandler) {
    const value = await next.handle();
    return new ToolResult({ content: [text(String(value)), text(`request ${String(this.context.requestId)}`)] });
  }
}

@Injectable()
class Tools {
  @UseInterceptors(Inspect)
  @Tool()
  who(@Caller() caller: string, @Caller('name') name: string, @Param() greeting: string): string {
    return `${greeting} ${name} (${caller})`;
  }

  @UseInterceptors(Wrap)
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }

  @UseInterceptors(Stamp)
  @Tool()
  stamped(): string {
    return 'stamped';
  }

  @Prompt()
  topic(@Param('subject') subject: string): string {
    return `About ${subject}`;
  }

  @UseInterceptors(Inspect)
  @Complete({ prompt: 'topic', argument: 'subject' })
  subjects(value: string, context: { arguments: Record<string, string> }, @Ctx() ctx: Context, @Caller('name') caller: string): string[] {
    return [`${value}-${caller}`, `${ctx instanceof Context}`, JSON.stringify(context.arguments)];
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'context', version: '1.0.0' })], providers: [Tools] })
class ContextModule {}

describe('ExecutionContext, custom parameter decorators and interceptors', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(ContextModule, { clientInfo: { name: 'spec-client', version: '2.0.0' } });
  });
  afterAll(() => client.close());
  beforeEach(() => {
    seen.length = 0;
  });

  it('keeps custom parameters out of the input schema and fills them per call', async () => {
    const tool = (await client.listTools()).tools.find((t) => t.name === 'who')!;
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: { greeting: { type: 'string' } },
      required: ['greeting'],
      additionalProperties: false,
    });
    expect(answer(await client.callTool({ name: 'who', arguments: { greeting: 'Hi' } }))).toEqual({
      text: 'Hi spec-client (spec-client@2.0.0)',
      isError: false,
    });
  });

  it("gives Nest's ExecutionContext shape plus MCP's method, phase, kind and name", async () => {
    await client.callTool({ name: 'who', arguments: { greeting: 'Hi' } });
    expect(seen).toEqual([
      {
        type: 'mcp',
        class: 'Tools',
        handler: 'who',
        data: { greeting: 'Hi' },
        args0: { greeting: 'Hi' },
        isContext: true,
        method: 'tools/call',
        phase: 'call',
        kind: 'tool',
        name: 'who',
        sessionId: undefined,
        auth: undefined,
      },
    ]);
  });

  it('lets interceptors map the value and short-circuit the call', async () => {
    expect(answer(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toEqual({ text: '[hi]', isError: false });
    expect(answer(await client.callTool({ name: 'echo', arguments: { text: 'skip' } }))).toEqual({ text: 'short-circuited', isError: false });
  });

  it('builds a request-scoped interceptor per call, with the Context injected', async () => {
    Stamp.built = 0;
    const first = await client.callTool({ name: 'stamped', arguments: {} });
    const second = await client.callTool({ name: 'stamped', arguments: {} });
    expect(Stamp.built).toBe(2);
    expect((first.content as { text: string }[]).map((c) => c.text)[0]).toBe('stamped');
    expect((first.content as { text: string }[])[1].text).toMatch(/^request \d+$/);
    expect((second.content as { text: string }[])[1].text).not.toBe((first.content as { text: string }[])[1].text);
  });

  it('gives completers validation, @Ctx(), custom parameters and interceptors', async () => {
    const result = await client.complete({
      ref: { type: 'ref/prompt', name: 'topic' },
      argument: { name: 'subject', value: 'ma' },
      context: { arguments: { other: 'x' } },
    });
    expect(result.completion.values).toEqual(['ma-spec-client', 'true', '{"other":"x"}']);
    expect(seen[0]).toMatchObject({ kind: 'completion', name: 'topic#subject', method: 'completion/complete', data: { value: 'ma', context: { arguments: { other: 'x' } } } });
  });
});
