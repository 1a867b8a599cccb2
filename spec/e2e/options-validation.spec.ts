import 'reflect-metadata';
import { BootstrapErrorCode, Injectable, McpFactory, McpModule, Module, Tool, type McpModuleOptions } from 'mcp-reflect';

@Injectable()
class Tools {
  @Tool()
  ping(): string {
    return 'pong';
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

  it.each([[{ pageSize: 1 }], [{ callTimeout: 0 }], [{ maxSubscriptionsPerSession: 0 }]])('accepts %j', async (options) => {
    const app = await create(options);
    await app.close();
  });
});
