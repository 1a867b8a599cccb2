import 'reflect-metadata';
import { setTimeout as sleep } from 'node:timers/promises';
import { BootstrapErrorCode, Injectable, McpFactory, McpModule, Module, Resource, Tool, type McpModuleOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../support/clients';

@Injectable()
class Tools {
  @Tool()
  ping(): string {
    return 'pong';
  }

  /** Answers after 100 ms: longer than a 20 ms deadline. */
  @Tool()
  async slow(): Promise<string> {
    await sleep(100);
    return 'done';
  }

  @Resource('config://app')
  config(): string {
    return '{}';
  }
}

const create = (options: Partial<McpModuleOptions>) => {
  @Module({ imports: [McpModule.forRoot({ name: 'opts', version: '1.0.0', ...options })], providers: [Tools] })
  class OptionsModule {}
  return McpFactory.create(OptionsModule);
};

/** Numeric forRoot options are checked at bootstrap: a bad one would otherwise break every list or call. */
describe('numeric McpModule.forRoot() options', () => {
  it.each([
    [{ pageSize: -1 }, 'pageSize: -1'],
    [{ pageSize: 0 }, 'pageSize: 0'],
    [{ pageSize: 1.5 }, 'pageSize: 1.5'],
    [{ callTimeout: -5 }, 'callTimeout: -5'],
    [{ maxSubscriptionsPerSession: -1 }, 'maxSubscriptionsPerSession: -1'],
    [{ pageSize: '10' as unknown as number }, 'pageSize: "10"'],
  ])('refuses %j', async (options, shown) => {
    await expect(create(options)).rejects.toMatchObject({
      code: BootstrapErrorCode.InvalidOption,
      message: expect.stringContaining(`Cannot use McpModule.forRoot({ ${shown} }): it must be a whole number of at least`),
    });
  });

  /** A client of an application made with `options` (closing it closes the application). */
  const clientOf = async (options: Partial<McpModuleOptions>, run: (client: TestClient) => Promise<void>) => {
    const client = await createTestClient(await create(options));
    try {
      await run(client);
    } finally {
      await client.close();
    }
  };

  it('accepts {"pageSize":1}: tools/list answers one tool per page', () =>
    clientOf({ pageSize: 1 }, async (client) => {
      // client.listTools() without a cursor walks every page (SDK v2): the first page is asked for directly.
      const first = await client.request({ method: 'tools/list', params: {} });
      expect(first.tools.map((t) => t.name)).toEqual(['ping']);
      const second = await client.listTools({ cursor: first.nextCursor! });
      expect(second.tools.map((t) => t.name)).toEqual(['slow']);
      expect(second.nextCursor).toBeUndefined();
    }));

  it('accepts {"callTimeout":0}: no deadline, where {"callTimeout":20} answers the same call with its timeout', async () => {
    await clientOf({ callTimeout: 0 }, async (client) => {
      expect(answer(await client.callTool({ name: 'slow', arguments: {} }))).toEqual({ text: 'done', isError: false });
    });
    await clientOf({ callTimeout: 20 }, async (client) => {
      expect(answer(await client.callTool({ name: 'slow', arguments: {} }))).toEqual({ text: "Tool 'slow' timed out after 20 ms", isError: true });
    });
  });

  it('accepts {"maxSubscriptionsPerSession":0}: a session may subscribe to nothing', () =>
    clientOf({ maxSubscriptionsPerSession: 0 }, async (client) => {
      await expect(client.subscribeResource({ uri: 'config://app' })).rejects.toMatchObject({
        code: -32602,
        message: expect.stringContaining('Cannot subscribe to config://app: this session already holds 0 subscriptions, the most one session may hold.'),
      });
    }));
});
