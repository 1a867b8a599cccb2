import { AsyncLocalStorage } from 'node:async_hooks';
import { InMemoryServerEventBus, type ServerEvent, type ServerEventBus } from '@modelcontextprotocol/server';
import type { Caller } from './visibility';

/** Whether `caller` may hear that `uri` changed (true, false, or the answer of async guards). */
export type HearingCheck = (uri: string, caller: Caller) => boolean | Promise<boolean>;

/**
 * The change bus of the SDK's `subscriptions/listen` streams (2026-07-28 over HTTP), which knows who opened
 * each stream: a stream hears `notifications/resources/updated` only for URIs its caller may see. The SDK's
 * listen router filters by the URIs the stream named and nothing else, and registers a stream's listener
 * synchronously while it serves the listen request, so the caller of the request served inside `as()` is the
 * stream's. A stream opened outside `as()` hears as a caller without identity. The other change events
 * (list_changed) name no component and pass unchanged.
 */
export class CallerBus implements ServerEventBus {
  private readonly inner: InMemoryServerEventBus;
  private readonly callers = new AsyncLocalStorage<Caller>();

  constructor(
    private readonly mayHear: HearingCheck,
    onerror?: (error: Error) => void,
  ) {
    this.inner = new InMemoryServerEventBus(onerror);
  }

  /** Serves one request (`work`) as `caller`: a listen stream it opens is that caller's. */
  as<T>(caller: Caller, work: () => T): T {
    return this.callers.run(caller, work);
  }

  publish(event: ServerEvent): void {
    this.inner.publish(event);
  }

  subscribe(listener: (event: ServerEvent) => void): () => void {
    const caller = this.callers.getStore() ?? {};
    return this.inner.subscribe((event) => {
      if (event.kind !== 'resource_updated') return listener(event);
      const verdict = this.mayHear(event.uri, caller);
      if (verdict === true) return listener(event);
      // A guard that throws hides the resource (it is logged where lists log it): nothing is delivered.
      if (verdict !== false) void verdict.then((may) => may && listener(event), () => undefined);
    });
  }
}
