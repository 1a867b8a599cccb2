import type { Client } from '@modelcontextprotocol/client';

/**
 * Waiting on events instead of sleeping: a spec waits for the thing it expects (a notification, a callback, a
 * state it can poll), never for a fixed time that is too short on a loaded machine and too long elsewhere.
 */

/** A promise with its resolve function outside: a callback (a tool, a hook, a handler) opens it, the spec awaits it. */
export interface Deferred<T = void> {
  readonly promise: Promise<T>;
  readonly settled: boolean;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  let settled = false;
  const promise = new Promise<T>((res, rej) => {
    resolve = (value) => {
      settled = true;
      res(value);
    };
    reject = (error) => {
      settled = true;
      rej(error);
    };
  });
  return {
    promise,
    get settled() {
      return settled;
    },
    resolve,
    reject,
  };
}

/**
 * `promise`, or a rejection naming `what` if it does not settle within `ms` (a deadline, not a pause: it
 * only turns a hang into a readable failure, well before jest's own test timeout).
 */
export function within<T>(promise: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, deadline]).finally(() => clearTimeout(timer));
}

/**
 * Polls `condition` until it returns a truthy value (which is returned), failing after `timeout` ms. Only for
 * states with no event to wait on (a client's reconnection, a file written by another process).
 */
export async function waitFor<T>(
  condition: () => T | Promise<T>,
  { timeout = 10_000, interval = 10, what = 'the condition' }: { timeout?: number; interval?: number; what?: string } = {},
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await condition();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeout} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}

/**
 * Records what arrives (notifications, log lines) and lets a spec wait until `count` items are there.
 *
 * @example
 * const updates = new Arrivals<string>();
 * client.setNotificationHandler('notifications/resources/updated', (n) => updates.push(n.params.uri));
 * await app.notifyResourceUpdated('config://app');
 * expect(await updates.until(1)).toEqual(['config://app']);
 */
export class Arrivals<T> {
  readonly items: T[] = [];
  private readonly waiting: { count: number; done: Deferred }[] = [];

  get length(): number {
    return this.items.length;
  }

  readonly push = (item: T): void => {
    this.items.push(item);
    for (const waiter of [...this.waiting]) {
      if (this.items.length < waiter.count) continue;
      this.waiting.splice(this.waiting.indexOf(waiter), 1);
      waiter.done.resolve();
    }
  };

  /** Resolves with the items once there are at least `count` of them (a deadline turns a hang into a failure). */
  async until(count: number, ms = 10_000): Promise<T[]> {
    if (this.items.length < count) {
      const done = deferred();
      const waiter = { count, done };
      this.waiting.push(waiter);
      try {
        await within(done.promise, `${count} arrival(s), got ${this.items.length}: ${JSON.stringify(this.items)}`, ms);
      } finally {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
      }
    }
    return this.items;
  }
}

/**
 * A request/response round trip with the server (`ping`). The server writes its messages to one connection in
 * order, and the client runs notification handlers in the order the messages arrive, before it settles a later
 * response: once the ping is answered, every notification the server sent before it has been handled. So
 * "nothing arrived" can be asserted right after, with no sleep. Only where notifications and responses share
 * one ordered channel (in memory, stdio, one listen stream): over HTTP a GET stream and a POST response race.
 */
export async function roundTrip(client: Client): Promise<void> {
  // 2026-07-28 has no ping: server/discover is the request every server answers there.
  if ((client.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28') await client.request({ method: 'server/discover', params: {} });
  else await client.ping();
}

const FAKEABLE = [
  'Date',
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

type Fakeable = (typeof FAKEABLE)[number];

/**
 * Jest's fake timers for `apis` only (e.g. `['setTimeout', 'clearTimeout']`, or `['performance']` for a clock):
 * promises, `nextTick` and `setImmediate` stay real, so in-memory SDK clients and servers keep working while the
 * spec moves time with `jest.advanceTimersByTime(ms)` (or its Async form). Undo with `jest.useRealTimers()`.
 */
export function fakeOnly(apis: readonly Fakeable[]): void {
  jest.useFakeTimers({ doNotFake: FAKEABLE.filter((api) => !apis.includes(api)) });
}
