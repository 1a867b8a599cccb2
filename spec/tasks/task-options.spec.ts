import { InMemoryTaskStore, Injectable, McpModule, Module, RedisTaskStore, Tool } from 'mcp-reflect';
import { bootstrapFailure, failureOf } from '../support/bootstrap';

describe('task options at bootstrap', () => {
  it('names the tool, the bad value and the fix for an invalid @Tool({ task })', async () => {
    @Injectable()
    class Jobs {
      @Tool({ task: 'always' as never })
      run(): string {
        return 'ran';
      }
    }
    const error = await bootstrapFailure(Jobs);
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe(
      "Cannot register the tool 'run' (Jobs.run): its task option is invalid (support \"always\" is neither 'optional' nor 'required').\n" +
        "Fix: write @Tool({ task: 'optional' }) or @Tool({ task: 'required' }), or @Tool({ task: { support: 'optional', ttlMs: 60_000 } }).",
    );
  });

  it('refuses a TTL that is not a whole number of milliseconds', async () => {
    @Injectable()
    class Jobs {
      @Tool({ task: { support: 'optional', ttlMs: 1.5 } })
      run(): string {
        return 'ran';
      }
    }
    expect((await bootstrapFailure(Jobs)).message).toContain('(ttlMs 1.5 is not a whole number of milliseconds above 0)');
  });

  it('refuses McpModule.forRoot({ tasks }) numbers below 1, naming the option', async () => {
    @Injectable()
    class Jobs {
      @Tool({ task: 'optional' })
      run(): string {
        return 'ran';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1', tasks: { pollIntervalMs: 0 } })], providers: [Jobs] })
    class Root {}
    const error = await failureOf(Root);
    expect(error.code).toBe('INVALID_OPTION');
    expect(error.message).toBe(
      'Cannot use McpModule.forRoot({ tasks: { pollIntervalMs: 0 } }): it must be a whole number of at least 1.\n' +
        'Fix: give a number of milliseconds, e.g. 1000, or leave it out.',
    );
  });

  it('refuses a task store bound that is not a whole number of at least 1, naming the store, the option and the fix', () => {
    expect(() => new InMemoryTaskStore({ maxTasksPerClient: 0 })).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message:
          'Cannot use new InMemoryTaskStore({ maxTasksPerClient: 0 }): it must be a whole number of at least 1.\n' +
          'Fix: give a number of tasks, e.g. 100, or leave it out.',
      }),
    );
    expect(() => new InMemoryTaskStore({ maxBytes: Number.NaN })).toThrow(/InMemoryTaskStore\(\{ maxBytes: null \}\)/);
    expect(() => new RedisTaskStore({} as never, { maxTaskBytes: -1 })).toThrow(/new RedisTaskStore\(redis, \{ maxTaskBytes: -1 \}\).*\n.*bytes, e\.g\. 1048576/);
  });

  it('refuses the per-owner bounds by their old names, naming the per-client ones that replaced them', () => {
    expect(() => new InMemoryTaskStore({ maxTasksPerOwner: 20 } as never)).toThrow(
      expect.objectContaining({
        code: 'INVALID_OPTION',
        message:
          'Cannot use new InMemoryTaskStore({ maxTasksPerOwner }): the option is now maxTasksPerClient (the bound counts the tasks of one client: its verified identity, else its remote address).\n' +
          'Fix: write maxTasksPerClient instead.',
      }),
    );
    expect(() => new InMemoryTaskStore({ maxBytesPerOwner: 1 } as never)).toThrow(/\{ maxBytesPerOwner \}\): the option is now maxBytesPerClient/);
    expect(() => new RedisTaskStore({} as never, { maxTasksPerOwner: 5 } as never)).toThrow(/^Cannot use new RedisTaskStore\(redis, \{ maxTasksPerOwner \}\): the option is now maxTasksPerClient/);
  });
});
