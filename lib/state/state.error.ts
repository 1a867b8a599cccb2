import { ErrorCode, ToolError } from '../errors';

/**
 * `ctx.state` cannot serve this call: it has no owner (no session, no verified identity), or the state of its
 * owner is full. Reported to the model as an `isError` result, verbatim.
 */
export class StateError extends ToolError {
  override readonly code: string;

  static noOwner(): StateError {
    return new StateError(
      ErrorCode.StateUnavailable,
      'Cannot keep state for this caller: it has no session and no verified identity, so its state would be shared with every other anonymous caller. ' +
        'Connect over stdio or stateful HTTP (2025-11-25 sessions), or serve with auth so that state is kept per user (docs/state.md).',
    );
  }

  static unavailable(): StateError {
    return new StateError(ErrorCode.StateUnavailable, 'Cannot use ctx.state here: only a tool, resource or prompt call has a caller to keep state for.');
  }

  static full(max: number): StateError {
    return new StateError(
      ErrorCode.StateLimit,
      `Cannot keep this value: the state of this caller would pass ${max} bytes, the most it may hold. Delete keys it no longer needs (ctx.state.delete), or keep smaller values.`,
    );
  }

  static clientFull(max: number): StateError {
    return new StateError(
      ErrorCode.StateLimit,
      `Cannot keep this value: the callers from this address keep ${max} bytes of state together, the most they may. Delete keys they no longer need (ctx.state.delete), or end sessions no longer used.`,
    );
  }

  static storeFull(max: number): StateError {
    return new StateError(ErrorCode.StateLimit, `Cannot keep this value: the state store is full (${max} bytes). Try again later.`);
  }

  private constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}
