import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  Catch,
  Context,
  Ctx,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  ToolError,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CanActivate,
  type ExceptionFilter,
  type ExecutionContext,
  type McpInterceptor,
  type PipeTransform,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';

/** What each stage does is chosen by the argument `fail`: '<stage>:<how>'. */
const failAt = (context: ExecutionContext, stage: string): string | undefined => {
  const fail = context.switchToRpc().getData<{ fail?: string }>()?.fail ?? '';
  return fail.startsWith(`${stage}:`) ? fail.slice(stage.length + 1) : undefined;
};

const boom = (how: string, where: string): never => {
  throw how === 'tool' ? new ToolError(`${where} says no`) : new Error(`${where} internals`);
};

class Guard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const how = failAt(context, 'guard');
    if (how) boom(how, 'guard');
    return true;
  }
}

class Interceptor implements McpInterceptor {
  async intercept(context: ExecutionContext, next: { handle(): Promise<unknown> }) {
    const how = failAt(context, 'interceptor');
    if (how) boom(how, 'interceptor');
    return next.handle();
  }
}

class Pipe implements PipeTransform {
  transform(value: unknown): unknown {
    if (typeof value === 'string' && value.startsWith('pipe:')) boom(value.slice(5), 'pipe');
    return value;
  }
}

class MethodFailure extends Error {}

@Catch(MethodFailure)
class Filter implements ExceptionFilter {
  catch(error: MethodFailure): never {
    return boom(error.message, 'filter');
  }
}

const logged: string[] = [];

@Injectable()
@UseGuards(Guard)
@UseInterceptors(Interceptor)
@UsePipes(Pipe)
@UseFilters(Filter)
class Stages {
  @Tool()
  run(@Param('fail', { optional: true }) fail?: string): string {
    if (fail?.startsWith('filter:')) throw new MethodFailure(fail.slice(7));
    return 'ok';
  }

  @ResourceTemplate('stages://{fail}')
  read(@Param('fail') fail: string): string {
    if (fail.startsWith('filter:')) throw new MethodFailure(fail.slice(7));
    return 'ok';
  }

  @Prompt()
  ask(@Param('fail') fail: string): string {
    if (fail.startsWith('filter:')) throw new MethodFailure(fail.slice(7));
    return 'ok';
  }

  @Resource('stages://recovered')
  @UseFilters({ catch: () => 'recovered contents' })
  recovered(): string {
    throw new Error('lost');
  }

  @Tool({ timeout: 30 })
  @UseInterceptors({ intercept: (_c: ExecutionContext, next: { handle(): Promise<unknown> }) => next.handle() })
  async slow(@Ctx() ctx: Context): Promise<string> {
    // Ends only when the deadline aborts it: any answer is the timeout's.
    await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
    return 'aborted';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'failures', version: '1.0.0', logger: { error: (message) => void logged.push(message), warn() {} } })],
  providers: [Stages],
})
class FailuresModule {}

describe('each failure stage, for each kind', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(FailuresModule);
  });
  afterAll(() => client.close());

  it.each([
    ['guard:tool', 'guard says no'],
    ['interceptor:tool', 'interceptor says no'],
    ['pipe:tool', 'pipe says no'],
    ['filter:tool', 'filter says no'],
    ['guard:crash', "Error calling tool 'run'"],
    ['interceptor:crash', "Error calling tool 'run'"],
    ['pipe:crash', "Error calling tool 'run'"],
    ['filter:crash', "Error calling tool 'run'"],
  ])('a tool whose %s fails answers %j as an isError result', async (fail, text) => {
    logged.length = 0;
    expect(answer(await client.callTool({ name: 'run', arguments: { fail } }))).toEqual({ text, isError: true });
    // Unexpected errors are logged in full (never sent); ToolErrors are the answer, not logged.
    expect(logged).toEqual(fail.endsWith(':crash') ? ["Tool 'run' (Stages.run) threw:"] : []);
  });

  it.each([
    ['guard:tool', -32603, 'guard says no'],
    ['pipe:tool', -32603, 'pipe says no'],
    ['filter:tool', -32603, 'filter says no'],
    ['interceptor:crash', -32603, "Error reading resource 'stages://interceptor:crash'"],
  ])('a resource template whose %s fails answers a JSON-RPC error', async (fail, code, message) => {
    const error = await client.readResource({ uri: `stages://${fail}` }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code, message: expect.stringContaining(message) });
    expect((error as Error).message).not.toContain('internals');
  });

  it.each([
    ['interceptor:tool', -32603, 'interceptor says no'],
    ['filter:crash', -32603, "Error getting prompt 'ask'"],
  ])('a prompt whose %s fails answers a JSON-RPC error', async (fail, code, message) => {
    await expect(client.getPrompt({ name: 'ask', arguments: { fail } })).rejects.toMatchObject({ code, message: expect.stringContaining(message) });
  });

  it('converts what a filter returns like a method value', async () => {
    expect((await client.readResource({ uri: 'stages://recovered' })).contents).toEqual([
      { uri: 'stages://recovered', mimeType: 'text/plain', text: 'recovered contents' },
    ]);
  });

  it('keeps @Tool({ timeout }) around the whole pipeline', async () => {
    expect(answer(await client.callTool({ name: 'slow', arguments: {} }))).toEqual({ text: "Tool 'slow' timed out after 30 ms", isError: true });
  });
});

describe('guards over HTTP', () => {
  class HeaderGuard implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      return context.context.headers?.['x-role'] === 'admin';
    }
  }

  @Injectable()
  class Ops {
    @Tool()
    status(): string {
      return 'green';
    }
    @UseGuards(HeaderGuard)
    @Tool()
    restart(): string {
      return 'restarted';
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'ops', version: '1.0.0' })], providers: [Ops] })
  class OpsModule {}

  it('shows each HTTP caller what its headers allow', async () => {
    const app = await McpFactory.create(OpsModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    const connect = async (role: string) => {
      const client = new Client({ name: role, version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl()), { requestInit: { headers: { 'x-role': role } } }));
      return client;
    };
    try {
      const admin = await connect('admin');
      const guest = await connect('guest');
      expect((await admin.listTools()).tools.map((t) => t.name)).toEqual(['status', 'restart']);
      expect((await guest.listTools()).tools.map((t) => t.name)).toEqual(['status']);
      expect(answer(await admin.callTool({ name: 'restart', arguments: {} }))).toEqual({ text: 'restarted', isError: false });
      await expect(guest.callTool({ name: 'restart', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      await Promise.all([admin.close(), guest.close()]);
    } finally {
      await app.close();
    }
  });
});
