import { ForwardingChannel, type RequestChannel } from '../context';

/**
 * A request's channel whose signal also aborts at the call's deadline. The combined signal is made when first
 * read: `AbortSignal.any()` costs some 20 µs, and most calls never look at their signal.
 */
export class DeadlineChannel extends ForwardingChannel {
  private controller?: AbortController;
  private combined?: AbortSignal;

  constructor(base: RequestChannel) {
    super(base);
  }

  /** Aborts the signal (if anyone read it) with `reason`. */
  expire(reason: unknown): void {
    this.controller?.abort(reason);
  }

  override get signal(): AbortSignal {
    return (this.combined ??= AbortSignal.any([this.base.signal, (this.controller = new AbortController()).signal]));
  }
}
