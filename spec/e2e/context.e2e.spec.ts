import 'reflect-metadata';
import { Context, Ctx, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { deferred, fakeOnly, within, type Deferred } from '../support/waiting';

const seen: { requestId?: string | number; sessionId?: string; aborted?: boolean; started?: Deferred; stopped?: Deferred } = {};

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
    seen.started?.resolve();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    seen.aborted = ctx.signal.aborted;
    seen.stopped?.resolve();
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
      seen.started = deferred();
      seen.stopped = deferred();
      seen.aborted = undefined;
      const controller = new AbortController();
      const call = client.callTool({ name: 'wait', arguments: {} }, { signal: controller.signal });
      await within(seen.started.promise, 'the tool to start');
      controller.abort('user pressed stop');
      await expect(call).rejects.toThrow();
      await within(seen.stopped.promise, "the tool's signal to abort");
      expect(seen.aborted).toBe(true);
    } finally {
      await client.close();
    }
  });
});

describe('@Tool({ timeout })', () => {
  // The deadline is a timer: the spec moves a fake clock (setTimeout only; promises stay real, so the in-memory
  // client and server work as usual) and the methods end only when the spec lets them.
  const ignoring = { started: deferred(), release: deferred(), ended: false };
  const listening = { started: deferred(), stopped: deferred(), sawAbort: false };

  @Injectable()
  class SlowTools {
    @Tool({ timeout: 100 })
    async ignoresSignal(): Promise<string> {
      ignoring.started.resolve();
      await ignoring.release.promise; // runs on until the spec has its answer
      ignoring.ended = true;
      return 'late';
    }

    @Tool({ timeout: 100 })
    async listens(@Ctx() ctx: Context): Promise<string> {
      listening.started.resolve();
      await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
      listening.sawAbort = ctx.signal.aborted;
      listening.stopped.resolve();
      return 'stopped';
    }

    @Tool({ timeout: 1_000 })
    quick(): string {
      return 'fast';
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'timeouts', version: '1.0.0' })], providers: [SlowTools] })
  class TimeoutModule {}

  /** Runs every microtask now queued, and those they queue: the in-memory exchange needs no timer, so any answer the server has sent by now has arrived. */
  const drain = () => new Promise((resolve) => setImmediate(resolve));

  it('answers "timed out after N ms" at the deadline, not before, while a method that ignores the signal runs on', async () => {
    const client = await createTestClient(TimeoutModule);
    fakeOnly(['setTimeout', 'clearTimeout']);
    try {
      let answered = false;
      const call = client.callTool({ name: 'ignoresSignal', arguments: {} }).finally(() => (answered = true));
      await ignoring.started.promise;
      jest.advanceTimersByTime(99);
      await drain();
      expect(answered).toBe(false);
      jest.advanceTimersByTime(1);
      expect(await call).toMatchObject({ isError: true, content: [{ type: 'text', text: "Tool 'ignoresSignal' timed out after 100 ms" }] });
      // The answer came from the deadline: the method is still running.
      expect(ignoring.ended).toBe(false);
      ignoring.release.resolve();

      const listened = client.callTool({ name: 'listens', arguments: {} });
      await listening.started.promise;
      jest.advanceTimersByTime(100);
      expect((await listened).content).toEqual([{ type: 'text', text: "Tool 'listens' timed out after 100 ms" }]);
      await listening.stopped.promise;
      expect(listening.sawAbort).toBe(true);

      expect((await client.callTool({ name: 'quick', arguments: {} })).content).toEqual([{ type: 'text', text: 'fast' }]);
    } finally {
      jest.useRealTimers();
      ignoring.release.resolve();
      await client.close();
    }
  });
});
