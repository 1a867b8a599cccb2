import 'reflect-metadata';
import { Context, Ctx, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const seen: { requestId?: string | number; sessionId?: string; aborted?: boolean } = {};

@Injectable()
class ContextTools {
  @Tool({ description: 'Reports progress, with one stale value that must be dropped' })
  async work(@Param() steps: number, @Ctx() ctx: Context): Promise<string> {
    for (let i = 1; i <= steps; i++) {
      await ctx.reportProgress(i, steps, `step ${i}`);
      await ctx.reportProgress(i - 0.5, steps); // not above the last value sent: dropped
    }
    seen.requestId = ctx.requestId;
    seen.sessionId = ctx.sessionId;
    return 'done';
  }

  @Tool()
  async chatty(@Ctx() ctx: Context): Promise<string> {
    await ctx.log.debug('debug detail');
    await ctx.log.info({ stage: 'start' }, 'worker');
    await ctx.log.warning('careful');
    await ctx.log.error('bad thing');
    return 'logged';
  }

  @Tool()
  async wait(@Ctx() ctx: Context): Promise<string> {
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    seen.aborted = ctx.signal.aborted;
    return 'stopped';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'ctx', version: '1.0.0' })], providers: [ContextTools] })
class ContextModule {}

describe('Context (through an SDK client)', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('sends increasing progress only when asked (%s)', async (protocolVersion) => {
    const client = await createTestClient(ContextModule, { protocolVersion });
    try {
      const progress: unknown[] = [];
      const result = await client.callTool(
        { name: 'work', arguments: { steps: 3 } },
        { onprogress: (p) => void progress.push(p) },
      );
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(progress).toEqual([
        { progress: 1, total: 3, message: 'step 1' },
        { progress: 2, total: 3, message: 'step 2' },
        { progress: 3, total: 3, message: 'step 3' },
      ]);
      expect(seen.requestId).toEqual(expect.anything());
      expect(seen.sessionId).toBeUndefined();

      const notifications: unknown[] = [];
      client.setNotificationHandler('notifications/progress', (n) => void notifications.push(n));
      await client.callTool({ name: 'work', arguments: { steps: 2 } });
      expect(notifications).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('sends log messages at or above the level the client set', async () => {
    const client = await createTestClient(ContextModule);
    try {
      const messages: unknown[] = [];
      client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
      await client.setLoggingLevel('info');
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(messages).toEqual([
        { level: 'info', logger: 'worker', data: { stage: 'start' } },
        { level: 'warning', data: 'careful' },
        { level: 'error', data: 'bad thing' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('aborts the signal when the client cancels the request', async () => {
    const client = await createTestClient(ContextModule);
    try {
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
      await new Promise((r) => setTimeout(r, 50));
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      await new Promise((r) => setTimeout(r, 50));
      expect(seen.aborted).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('@Tool({ timeout })', () => {
  let sawAbort = false;

  @Injectable()
  class SlowTools {
    @Tool({ timeout: 100 })
    async ignoresSignal(): Promise<string> {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return 'late';
    }

    @Tool({ timeout: 100 })
    async listens(@Ctx() ctx: Context): Promise<string> {
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      sawAbort = ctx.signal.aborted;
      return 'stopped';
    }

    @Tool({ timeout: 1_000 })
    quick(): string {
      return 'fast';
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'timeouts', version: '1.0.0' })], providers: [SlowTools] })
  class TimeoutModule {}

  it('answers "timed out after N ms" at the deadline, long before a method that ignores the signal ends', async () => {
    const client = await createTestClient(TimeoutModule);
    try {
      const started = Date.now();
      const result = await client.callTool({ name: 'ignoresSignal', arguments: {} });
      const elapsed = Date.now() - started;
      expect(result).toMatchObject({ isError: true, content: [{ type: 'text', text: "Tool 'ignoresSignal' timed out after 100 ms" }] });
      expect(elapsed).toBeGreaterThanOrEqual(95);
      // The method sleeps 1 s: an answer well before that came from the deadline (the bound leaves room for a
      // loaded CI machine running suites in parallel).
      expect(elapsed).toBeLessThan(600);

      const listening = await client.callTool({ name: 'listens', arguments: {} });
      expect(listening.content).toEqual([{ type: 'text', text: "Tool 'listens' timed out after 100 ms" }]);
      await new Promise((r) => setTimeout(r, 10));
      expect(sawAbort).toBe(true);

      expect((await client.callTool({ name: 'quick', arguments: {} })).content).toEqual([{ type: 'text', text: 'fast' }]);
    } finally {
      await client.close();
    }
  });
});
