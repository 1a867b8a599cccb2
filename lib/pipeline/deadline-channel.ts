import type { McpAuth } from '../interfaces';
import type { ClientInfo, InteractionChannel, LogLevel, RequestChannel } from '../context';

/**
 * A request's channel whose signal also aborts at the call's deadline. The combined signal is made when first
 * read: `AbortSignal.any()` costs some 20 µs, and most calls never look at their signal.
 */
export class DeadlineChannel implements RequestChannel {
  private controller?: AbortController;
  private combined?: AbortSignal;

  constructor(private readonly base: RequestChannel) {}

  /** Aborts the signal (if anyone read it) with `reason`. */
  expire(reason: unknown): void {
    this.controller?.abort(reason);
  }

  get signal(): AbortSignal {
    return (this.combined ??= AbortSignal.any([this.base.signal, (this.controller = new AbortController()).signal]));
  }

  get requestId(): string | number {
    return this.base.requestId;
  }

  get sessionId(): string | undefined {
    return this.base.sessionId;
  }

  get progressToken(): string | number | undefined {
    return this.base.progressToken;
  }

  get client(): ClientInfo | undefined {
    return this.base.client;
  }

  get protocolVersion(): string | undefined {
    return this.base.protocolVersion;
  }

  get interaction(): InteractionChannel | undefined {
    return this.base.interaction;
  }

  get auth(): McpAuth | undefined {
    return this.base.auth;
  }

  get headers(): Readonly<Record<string, string>> | undefined {
    return this.base.headers;
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.base.meta;
  }

  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.base.notify(method, params);
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    return this.base.log(level, data, logger);
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.base.resourceUpdated ? this.base.resourceUpdated(uri) : Promise.resolve();
  }

  startTask(): Promise<boolean> {
    return this.base.startTask ? this.base.startTask() : Promise.resolve(false);
  }
}
