import type { McpAuth } from './auth';
import type { ClientInfo, LogLevel, McpTransportKind, RequestChannel } from './context';
import type { InteractionChannel } from './interaction';
import type { StateBinding } from '../state';

/**
 * A request channel that forwards every member to `base`: channels that change one thing (the signal of a
 * deadline or a task, `startTask`) extend it and override only that.
 */
export class ForwardingChannel implements RequestChannel {
  constructor(protected readonly base: RequestChannel) {}

  get signal(): AbortSignal {
    return this.base.signal;
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

  get transport(): McpTransportKind | undefined {
    return this.base.transport;
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

  get clientKey(): string | undefined {
    return this.base.clientKey;
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.base.meta;
  }

  get state(): StateBinding | undefined {
    return this.base.state;
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
