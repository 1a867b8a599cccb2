import {
  createRequestStateCodec,
  inputRequired,
  type InputRequiredResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { InputRequiredSignal, type InputSpec } from '../context';

/** The answers collected so far in a multi-round-trip call, keyed like the Context asks for them. */
export type Answers = Record<string, unknown>;

/**
 * What `requestState` seals: what the answers belong to (a tool, prompt or resource), the keys the call has
 * asked for so far, and the answers to them. Only answers to asked keys are carried on: whatever else a
 * client puts in `inputResponses` is never signed and sent back.
 */
interface Sealed {
  readonly target: string;
  readonly asked: readonly string[];
  readonly answers: Answers;
  /** What the method carried into this round (a proxy's remote state), given back to it when re-entered. */
  readonly carry?: string;
}

/**
 * Multi-round-trip input (spec 2026-07-28 basic/patterns/mrtr): when a Context method needs an answer the
 * call does not carry yet, the handler returns `input_required` with the request and the answers so far
 * sealed (HMAC) in `requestState`. On 2025-era connections the SDK's shim asks the client directly and
 * re-enters the handler the same way, so user code is identical in both eras.
 */
export class InputRounds {
  private readonly codec;

  constructor(secret: string | Uint8Array) {
    this.codec = createRequestStateCodec<Sealed>({ key: secret, bind: (ctx) => ctx.mcpReq.method });
  }

  /** The SDK's `requestState.verify` hook: refuses state this server did not mint (answered -32602). */
  readonly verify = (state: string, ctx: ServerContext): Promise<Sealed> => this.codec.verify(state, ctx);

  /**
   * Answers from earlier rounds (verified state) plus the ones this retry carries, in an object without a
   * prototype (a key such as `toString` is answered only when the client answered it). State minted for
   * another target (another tool, prompt or resource) is ignored, so answers cannot be replayed across calls.
   */
  answers(ctx: ServerContext, target: string): Answers {
    return Object.assign(Object.create(null) as Answers, earlierRound(ctx, target)?.answers, ctx.mcpReq.inputResponses);
  }

  /** What the method carried into this round, when the round before was minted for `target`. */
  carried(ctx: ServerContext, target: string): string | undefined {
    const carry = earlierRound(ctx, target)?.carry;
    return typeof carry === 'string' ? carry : undefined;
  }

  /** Runs a handler for `target` ('tool:add'); a pending input becomes the input-required result. */
  async run<T>(ctx: ServerContext, target: string, work: () => Promise<T>): Promise<T | InputRequiredResult> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof InputRequiredSignal)) throw error;
      const before = new Set(earlierRound(ctx, target)?.asked);
      const answers = Object.fromEntries(Object.entries(this.answers(ctx, target)).filter(([key]) => before.has(key)));
      const asked = [...new Set([...before, ...error.requests.map(({ key }) => key)])];
      return inputRequired({
        inputRequests: Object.fromEntries(error.requests.map(({ key, spec }) => [key, toInputRequest(spec)])),
        requestState: await this.codec.mint({ target, asked, answers, ...(error.carry !== undefined ? { carry: error.carry } : {}) }, ctx),
      });
    }
  }
}

/** The verified state of the round before, when it was minted for `target`. */
function earlierRound(ctx: ServerContext, target: string): Sealed | undefined {
  const earlier = ctx.mcpReq.requestState<Sealed>();
  return typeof earlier === 'object' && earlier !== null && earlier.target === target && Array.isArray(earlier.asked) ? earlier : undefined;
}

/** The wire form of one input request (`inputRequests` entry). */
export function toInputRequest(spec: InputSpec) {
  switch (spec.kind) {
    case 'elicit':
      return inputRequired.elicit({ message: spec.message, requestedSchema: spec.requestedSchema as never });
    case 'elicitUrl':
      return inputRequired.elicitUrl({ message: spec.message, url: spec.url } as never);
    case 'sample':
      return inputRequired.createMessage(spec.params as never);
    case 'roots':
      return inputRequired.listRoots();
  }
}
