import { randomUUID } from 'node:crypto';
import type { Context, InputSpec } from '../context';
import { RequestError, RpcCode } from '../errors';

/** What a forwarded call is waiting for: the remote's answer, or the caller's answer to the remote's question. */
export type CallEvent<T> =
  | { readonly kind: 'done'; readonly value: T }
  | { readonly kind: 'failed'; readonly error: unknown }
  | { readonly kind: 'input'; readonly key: string; readonly spec: InputSpec };

/**
 * One call forwarded to a 2025-era remote, which asks its questions (elicitation, sampling, roots) as
 * requests of its own while the call runs. The caller's server answers questions by re-entering the method,
 * so the remote call outlives a round: it waits here, keyed by an id sealed into the round's state, for the
 * answer the next round brings. Bounded: a call waits at most `ttl` ms for an answer, then the remote's
 * question fails and the call is cancelled.
 */
export class ForwardedCall<T> {
  readonly id = randomUUID();
  readonly abort = new AbortController();
  /** The round now running: progress and log messages of the remote go to its Context. */
  ctx: Context;
  /** How many of the remote's notifications about the call are passed on (a flood is cut, not queued). */
  readonly notices = new Bucket();
  private events: CallEvent<T>[] = [];
  private wake?: () => void;
  private question?: { key: string; spec: InputSpec; answer: (value: unknown) => void; fail: (error: Error) => void };
  private asked = 0;
  private expiry?: NodeJS.Timeout;
  private ended = false;
  private settled = false;

  constructor(
    ctx: Context,
    private readonly ttl: number,
    private readonly onEnd: (call: ForwardedCall<T>) => void,
  ) {
    this.ctx = ctx;
  }

  /** Runs the remote request; its outcome becomes the last event. */
  start(request: (signal: AbortSignal) => Promise<T>): this {
    request(this.abort.signal).then(
      (value) => this.settle({ kind: 'done', value }),
      (error: unknown) => this.settle({ kind: 'failed', error }),
    );
    return this;
  }

  /** Whether the call is running on the remote (not waiting for the caller): the remote's questions are its. */
  get running(): boolean {
    return !this.question && !this.ended;
  }


  /** The remote asks the caller something: resolves with the caller's answer, when a later round brings it. */
  ask(spec: InputSpec): Promise<unknown> {
    const key = `remote-${this.asked++}`;
    return new Promise<unknown>((answer, fail) => {
      this.question = { key, spec, answer, fail };
      this.push({ kind: 'input', key, spec });
      this.expiry = setTimeout(() => this.expire(), this.ttl);
      this.expiry.unref();
    });
  }

  /** A round re-entered with the answer to the pending question: hands it to the remote. */
  resume(ctx: Context): void {
    const question = this.question;
    if (!question) return;
    const answer = ctx.inputAnswer(question.key);
    if (answer === undefined) throw new RequestError(RpcCode.InvalidParams, `The answer to the remote server's question '${question.key}' is missing from inputResponses.`);
    clearTimeout(this.expiry);
    this.question = undefined;
    this.ctx = ctx;
    question.answer(answer);
  }

  /** The next event, or the caller's cancellation (which cancels the remote call). */
  async next(signal: AbortSignal): Promise<CallEvent<T>> {
    while (this.events.length === 0) {
      if (signal.aborted) return this.cancel();
      const woken = new Promise<void>((resolve) => (this.wake = resolve));
      const onAbort = () => this.wake?.();
      signal.addEventListener('abort', onAbort, { once: true });
      await woken;
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted && this.events.length === 0) return this.cancel();
    }
    const event = this.events.shift()!;
    if (event.kind !== 'input') this.end();
    return event;
  }

  /**
   * The caller cannot be asked (it lacks the capability): the remote's question fails with `reason` and the
   * call goes on, the remote deciding what follows; a roots question is answered with no roots.
   */
  decline(reason: string): void {
    const question = this.question;
    if (!question) return;
    clearTimeout(this.expiry);
    this.question = undefined;
    if (question.spec.kind === 'roots') question.answer({ roots: [] });
    else question.fail(new Error(reason));
  }

  /** Stops the call: the remote's pending question fails with `reason`, and the remote call is cancelled. */
  stop(reason: string): void {
    this.question?.fail(new Error(reason));
    this.question = undefined;
    this.end();
  }

  private settle(event: CallEvent<T>): void {
    this.settled = true;
    this.push(event);
  }

  private push(event: CallEvent<T>): void {
    this.events.push(event);
    this.wake?.();
  }

  private cancel(): CallEvent<T> {
    this.end();
    return { kind: 'failed', error: new RequestError(RpcCode.InternalError, 'The call was cancelled.') };
  }

  private expire(): void {
    this.stop(`the caller did not answer within ${this.ttl} ms`);
  }

  private end(): void {
    if (this.ended) return;
    this.ended = true;
    clearTimeout(this.expiry);
    this.question?.fail(new Error('the call ended'));
    this.question = undefined;
    if (!this.settled) this.abort.abort();
    this.onEnd(this);
  }
}

/** A question of the remote (a request it sent, or an `inputRequests` entry) in the Context's words. */
export function specOf(method: string, params: Record<string, unknown> | undefined): InputSpec {
  const p = params ?? {};
  switch (method) {
    case 'elicitation/create':
      return p.mode === 'url'
        ? { kind: 'elicitUrl', message: String(p.message ?? ''), url: String(p.url ?? '') }
        : { kind: 'elicit', message: String(p.message ?? ''), requestedSchema: (p.requestedSchema ?? { type: 'object', properties: {} }) as Record<string, unknown> };
    case 'sampling/createMessage':
      return { kind: 'sample', params: p };
    case 'roots/list':
      return { kind: 'roots' };
    default:
      throw new RequestError(RpcCode.InvalidRequest, `The proxy does not pass '${method}' requests on to the caller.`);
  }
}

/**
 * A token bucket: bursts of `size`, then `rate` per second. What a remote sends about a call (progress, log
 * messages) passes through one, so a remote flooding notifications cannot flood the caller or this server.
 */
export class Bucket {
  private tokens: number;
  private last = Date.now();

  constructor(
    private readonly size = 100,
    private readonly rate = 50,
  ) {
    this.tokens = size;
  }

  take(): boolean {
    const now = Date.now();
    this.tokens = Math.min(this.size, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}
