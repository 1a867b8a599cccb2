import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  APP_MIDDLEWARE,
  BootstrapErrorCode,
  Complete,
  Injectable,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  Scope,
  Tool,
  ToolError,
  type McpMiddleware,
  type MiddlewareContext,
  type NextMiddleware,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { failureOf } from '../../support/bootstrap';
import { answer } from '../../support/clients';

const trail: string[] = [];

@Injectable()
class Audit {
  readonly lines = trail;
}

/** Built by the container from an APP_MIDDLEWARE provider: its constructor gets the Audit service. */
@Injectable()
class Outer implements McpMiddleware {
  constructor(private readonly audit: Audit) {}

  async onRequest(context: MiddlewareContext, next: NextMiddleware) {
    this.audit.lines.push(`outer ${context.method}`);
    const result = await next();
    this.audit.lines.push(`outer done ${context.method}`);
    return result;
  }
}

class Inner implements McpMiddleware {
  async onRequest(context: MiddlewareContext, next: NextMiddleware) {
    trail.push(`inner ${context.method}`);
    return next();
  }

  async onCallTool(context: MiddlewareContext<{ name: string; arguments?: Record<string, unknown> }>, next: NextMiddleware) {
    trail.push(`inner call ${context.params.name}`);
    const { name } = context.params;
    if (name === 'shortcut') return { content: [{ type: 'text', text: 'answered by middleware' }] };
    if (name === 'forbidden') throw new ToolError('Tool calls to forbidden are switched off today.');
    if (name === 'broken') throw new Error('middleware internals');
    if (name === 'twice') {
      await next();
      return next();
    }
    // Change what runs next: the arguments the tool receives.
    if (name === 'echo') return next({ ...context, params: { ...context.params, arguments: { text: `${String(context.params.arguments?.text)}!` } } });
    return next();
  }

  async onListTools(_context: MiddlewareContext, next: NextMiddleware) {
    const result = (await next()) as { tools: { name: string }[] };
    return { ...result, tools: result.tools.filter((tool) => tool.name !== 'hidden') };
  }

  async onReadResource(context: MiddlewareContext<{ uri: string }>, next: NextMiddleware) {
    if (context.params.uri === 'notes://crash') throw new Error('read internals');
    return next();
  }

  async onGetPrompt(context: MiddlewareContext, next: NextMiddleware) {
    trail.push(`prompt session context ${typeof context.context.requestId}`);
    return next();
  }
}

@Injectable()
class Components {
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }
  @Tool()
  hidden(): string {
    return 'hidden';
  }
  @Tool()
  twice(): string {
    return 'twice';
  }
  @Resource('notes://a')
  note(): string {
    return 'note a';
  }
  @ResourceTemplate('notes://by/{id}')
  byId(@Param('id') id: string): string {
    return id;
  }
  @Prompt()
  ask(@Param('q') q: string): string {
    return q;
  }
  @Complete({ prompt: 'ask', argument: 'q' })
  questions(value: string): string[] {
    return [value];
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'middleware', version: '1.0.0', logger: { error() {}, warn() {} }, middleware: [Inner] })],
  providers: [Audit, Components, { provide: APP_MIDDLEWARE, useClass: Outer }],
})
class MiddlewareModule {}

describe('middleware', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(MiddlewareModule);
  });
  afterAll(() => client.close());
  beforeEach(() => {
    trail.length = 0;
  });

  it('wraps a call as an onion: forRoot middleware first, each onRequest around its own method hook', async () => {
    expect(answer(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toEqual({ text: 'hi!', isError: false });
    // forRoot({ middleware }) come before APP_MIDDLEWARE providers.
    expect(trail).toEqual(['inner tools/call', 'inner call echo', 'outer tools/call', 'outer done tools/call']);
  });

  it('runs for lists and may change their result', async () => {
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo', 'twice']);
    await client.listResources();
    await client.listResourceTemplates();
    await client.listPrompts();
    await client.complete({ ref: { type: 'ref/prompt', name: 'ask' }, argument: { name: 'q', value: 'x' } });
    expect(trail.filter((line) => line.startsWith('inner ') && !line.startsWith('inner call'))).toEqual([
      'inner tools/list',
      'inner resources/list',
      'inner resources/templates/list',
      'inner prompts/list',
      'inner completion/complete',
    ]);
  });

  it('can answer a request itself, and sees the Context', async () => {
    expect(answer(await client.callTool({ name: 'shortcut', arguments: {} }))).toEqual({ text: 'answered by middleware', isError: false });
    await client.getPrompt({ name: 'ask', arguments: { q: 'why' } });
    expect(trail).toContain('prompt session context number');
  });

  it('answers what a middleware throws as the method would: tool errors as isError results, the rest masked', async () => {
    expect(answer(await client.callTool({ name: 'forbidden', arguments: {} }))).toEqual({
      text: 'Tool calls to forbidden are switched off today.',
      isError: true,
    });
    expect(answer(await client.callTool({ name: 'broken', arguments: {} }))).toEqual({ text: "Error calling tool 'broken'", isError: true });
    expect(answer(await client.callTool({ name: 'twice', arguments: {} }))).toEqual({ text: "Error calling tool 'twice'", isError: true });
    await expect(client.readResource({ uri: 'notes://crash' })).rejects.toMatchObject({
      code: -32603,
      message: expect.not.stringContaining('internals'),
    });
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
  });
});

describe('middleware at bootstrap', () => {
  it('refuses an object without any hook, naming where it was given', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'm', version: '1.0.0', middleware: [{ handle() {} } as never] })] })
    class BadModule {}
    const error = await failureOf(BadModule);
    expect(error.code).toBe(BootstrapErrorCode.InvalidEnhancer);
    expect(error.message).toBe(
      'Cannot use an instance of Object as a middleware (McpModule.forRoot({ middleware }) entry #0): it has no ' +
        'onRequest(context, next) or onCallTool(context, next), … method.\n' +
        'Fix: implement onRequest(context, next) or onCallTool(context, next), … in it, or give it where middlewares are expected.',
    );
  });

  it('refuses request-scoped middleware', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class PerRequest implements McpMiddleware {
      onRequest(_context: MiddlewareContext, next: NextMiddleware) {
        return next();
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'm', version: '1.0.0', middleware: [PerRequest] })] })
    class ScopedModule {}
    const error = await failureOf(ScopedModule);
    expect(error.message).toBe(
      'Cannot use PerRequest as a middleware: it is request-scoped, and middleware is built once for the application.\n' +
        'Fix: make PerRequest a singleton, and read per-request data from context.context in its hooks.',
    );
  });
});
