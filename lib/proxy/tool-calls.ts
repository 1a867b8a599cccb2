import type { Context, InputSpec } from '../context';
import { isModernRevision } from '../context';
import { RequestError, RpcCode } from '../errors';
import { Bucket, ForwardedCall, specOf } from './forwarded-call';
import { printable } from '../catalogue';
import type { RemoteServer } from './remote-server';

/** A call on the remote now: the remote's questions and log messages go to the Context of the one running. */
interface InFlight {
  readonly ctx: Context;
  readonly running: boolean;
  readonly notices: Bucket;
  ask?(spec: InputSpec): Promise<unknown>;
}

type ToolAnswer = Record<string, unknown>;
type Progress = { progress: number; total?: number; message?: string };
const MAX_CARRY = 64 * 1024; // bytes of a remote's requestState carried through the caller's rounds
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/**
 * The tool calls of one remote in flight, and what the remote sends about them: its questions (elicitation,
 * sampling, roots) and log messages go to the caller of the call they belong to.
 */
export class ToolCalls {
  private readonly calls = new Map<string, InFlight>();
  /** Log messages of the remote that belong to no call, for this server's log. */
  private readonly unattached = new Bucket(20, 2);

  constructor(private readonly remote: RemoteServer) {}

  /**
   * `tools/call` on the remote, with the caller's progress and cancellation, and the remote's questions
   * (elicitation, sampling, roots) asked of the caller: on 2026-07-28 they come back as `input_required` and
   * the remote's `requestState` is carried through the caller's rounds; a 2025-era remote asks with requests
   * of its own while the call runs, and the call waits between the caller's rounds (`ForwardedCall`).
   */
  callTool(name: string, args: Record<string, unknown> | undefined, ctx: Context): Promise<ToolAnswer> {
    const carried = ctx.carriedInput;
    if (carried?.startsWith('l:')) return this.legacyCall(name, args, ctx, carried.slice(2));
    if (carried?.startsWith('m:') || isModernRevision(this.remote.protocolVersion)) return this.modernCall(name, args, ctx, carried);
    return this.legacyCall(name, args, ctx, undefined);
  }

  private async modernCall(name: string, args: Record<string, unknown> | undefined, ctx: Context, carried: string | undefined): Promise<ToolAnswer> {
    let state: { s?: string; k: string[] } | undefined = carried ? JSON.parse(carried.slice(2)) : undefined;
    const entry: InFlight = { ctx, running: true, notices: new Bucket() };
    const id = `${ctx.requestId}:${Math.random()}`;
    this.calls.set(id, entry);
    try {
      for (let round = 0; ; round++) {
        const inputResponses = state && Object.fromEntries(state.k.flatMap((key) => (ctx.inputAnswer(key) === undefined ? [] : [[key, ctx.inputAnswer(key)]])));
        const params = {
          name,
          arguments: args ?? {},
          _meta: { [LOG_LEVEL]: ctx.meta?.[LOG_LEVEL] ?? 'info' }, // its log messages reach the caller (2026-07-28 asks per request)
          ...(inputResponses ? { inputResponses } : {}),
          ...(state?.s !== undefined ? { requestState: state.s } : {}),
        };
        const result = (await this.remote.forward(ctx, (client) =>
          client.callTool(params as never, { ...this.remote.requestOptions(ctx), allowInputRequired: true, onprogress: (p: Progress) => void (entry.notices.take() && ctx.reportProgress(p.progress, p.total, p.message)) } as never),
        )) as ToolAnswer;
        if (result.resultType !== 'input_required') return result;
        const requests = Object.entries((result.inputRequests ?? {}) as Record<string, { method: string; params?: Record<string, unknown> }>);
        const requestState = typeof result.requestState === 'string' ? result.requestState : undefined;
        if (requests.length === 0) {
          // Only requestState (the remote sheds load): retry it, paced and bounded like the SDK's own driver.
          if (round >= 10) throw new RequestError(RpcCode.InternalError, `The ${this.remote.label} still asked to retry after 10 rounds.`);
          await new Promise((resolve) => setTimeout(resolve, 250));
          state = { s: requestState, k: [] };
          continue;
        }
        const carry = `m:${JSON.stringify({ s: requestState, k: requests.map(([key]) => key) })}`;
        if (carry.length > MAX_CARRY) throw new RequestError(RpcCode.InternalError, `The ${this.remote.label} returned a requestState larger than the proxy carries (${MAX_CARRY} bytes).`);
        throw ctx.relayInputs(requests.map(([key, request]) => ({ key, spec: specOf(request.method, request.params) })), carry);
      }
    } finally {
      this.calls.delete(id);
    }
  }

  private async legacyCall(name: string, args: Record<string, unknown> | undefined, ctx: Context, waiting: string | undefined): Promise<ToolAnswer> {
    const client = this.remote.usable();
    let call: ForwardedCall<ToolAnswer>;
    if (waiting !== undefined) {
      const found = this.calls.get(waiting);
      if (!(found instanceof ForwardedCall)) {
        throw new RequestError(RpcCode.InvalidParams, `The call of the ${this.remote.label} that this answer belongs to has ended (it waited too long, or ran on another instance of this server). Call the tool again.`);
      }
      call = found as ForwardedCall<ToolAnswer>;
      call.resume(ctx);
    } else {
      // Its slot is held until the call ends, across the caller's rounds (waiting for the remote, or for its caller's answer).
      const release = this.remote.slots.take(ctx.clientKey);
      call = new ForwardedCall<ToolAnswer>(ctx, this.remote.options.requestTimeout ?? 60_000, (ended) => {
        this.calls.delete(ended.id);
        release();
      });
      this.calls.set(call.id, call);
      call.start((signal) =>
        client.callTool(
          { name, arguments: args ?? {} },
          { signal, timeout: this.remote.options.requestTimeout ?? 60_000, resetTimeoutOnProgress: true, onprogress: (p: Progress) => void (call.notices.take() && call.ctx.reportProgress(p.progress, p.total, p.message)) },
        ) as Promise<ToolAnswer>,
      );
    }
    for (;;) {
      const event = await call.next(ctx.signal);
      if (event.kind === 'done') return event.value;
      if (event.kind === 'failed') throw await this.remote.failure(event.error, client, ctx);
      try {
        throw ctx.relayInputs([{ key: event.key, spec: event.spec }], `l:${call.id}`);
      } catch (error) {
        if ((error as { inputRequired?: boolean }).inputRequired) throw error;
        call.decline(error instanceof Error ? error.message : String(error));
      }
    }
  }

  /**
   * The remote asks the caller something (a 2025-era remote, with a request of its own): it is the question
   * of the one call running on it. With several running, nothing tells which (the protocol carries no link on
   * stdio, nor the SDK's HTTP transport), so the question is refused rather than asked of the wrong caller.
   */
  question(method: string, params: Record<string, unknown> | undefined): Promise<unknown> {
    const running = [...this.calls.values()].filter((call) => call.running);
    const [call] = running;
    // A 2025-era server asks for roots when its session starts and when they change, not as part of a call: taken
    // for the question of a call that happens to run then, it would hold that call's one question while the call's
    // own (an elicitation) is refused. So it is answered with no roots, as when there is no caller to ask.
    if (method === 'roots/list') return Promise.resolve({ roots: [] });
    if (running.length !== 1 || !call.ask) {
      const why = running.length === 0 ? 'no call of the proxy is running on it' : `${running.length} calls of the proxy are running on it and nothing tells which one asks`;
      return Promise.reject(new Error(`The proxy cannot pass this ${method} request on: ${why}.`));
    }
    return call.ask(specOf(method, params));
  }

  /** A log message of the remote: to the caller of the one call running on it, else to this server's log. */
  log(params: { level?: string; data?: unknown; logger?: string }): void {
    const running = [...this.calls.values()].filter((call) => call.running);
    if (running.length === 1) {
      if (!running[0].notices.take()) return;
      void running[0].ctx.log[(params.level ?? 'info') as 'info']?.(params.data, params.logger ?? this.remote.options.namespace);
      return;
    }
    if (!this.unattached.take()) return;
    const text = typeof params.data === 'string' ? params.data : JSON.stringify(params.data);
    (this.remote.logger.info ?? this.remote.logger.error).call(this.remote.logger, `[${this.remote.options.namespace}] ${printable(params.level ?? 'info', 20)}: ${printable(text, 2_000)}`);
  }
}
