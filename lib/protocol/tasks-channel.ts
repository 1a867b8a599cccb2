import type { Server } from '@modelcontextprotocol/server';
import type { ClientInfo, InputRequiredSignal, InteractionChannel, LogLevel, RequestChannel } from '../context';
import type { McpAuth } from '../interfaces';

/** What a task keeps of the request that created it: read once, as the request ends before the task does. */
export interface TaskOrigin {
  readonly requestId: string | number;
  readonly sessionId: string | undefined;
  readonly progressToken: string | number | undefined;
  readonly client?: ClientInfo;
  readonly protocolVersion?: string;
  readonly auth?: McpAuth;
  readonly headers?: Readonly<Record<string, string>>;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly interaction?: InteractionChannel;
  readonly resourceUpdated?: (uri: string) => Promise<void>;
  /** The session's server (2025 eras): notifications and input requests go to the client through it. */
  readonly server?: Server;
}

/** Reads what a task needs of its request's channel, once. */
export function originOf(channel: RequestChannel, server: Server | undefined): TaskOrigin {
  return {
    requestId: channel.requestId,
    sessionId: channel.sessionId,
    progressToken: channel.progressToken,
    client: channel.client,
    protocolVersion: channel.protocolVersion,
    auth: channel.auth,
    headers: channel.headers,
    meta: channel.meta,
    interaction: channel.interaction,
    resourceUpdated: channel.resourceUpdated?.bind(channel),
    ...(server ? { server } : {}),
  };
}

/** What a task channel reports to its run. */
export interface TaskChannelHooks {
  readonly taskId: string;
  /** A progress message (`ctx.reportProgress(…, message)`): the task's `statusMessage`. */
  progress(message: string): void;
}

/**
 * The Context's view of a task run: the request's identity and client, the task's own signal (aborted by
 * `tasks/cancel`), the answers collected so far, and every input request the run raises. On a 2025-era session
 * notifications go to the client through the session; on 2026-07-28 a request's stream is gone, so progress
 * becomes the task's `statusMessage` and logs are dropped.
 */
export class TaskChannel implements RequestChannel {
  readonly raised: InputRequiredSignal[] = [];
  private readonly answersView: InteractionChannel | undefined;
  private readonly ownToken: string;

  constructor(
    private readonly origin: TaskOrigin,
    readonly signal: AbortSignal,
    answers: Readonly<Record<string, unknown>>,
    private readonly hooks: TaskChannelHooks,
  ) {
    this.ownToken = `task:${hooks.taskId}`;
    const base = origin.interaction;
    this.answersView = base && {
      response: (key) => answers[key],
      form: (dto) => base.form(dto),
      readResource: (uri) => base.readResource(uri),
      raised: (signal) => this.raised.push(signal),
    };
  }

  get interaction(): InteractionChannel | undefined {
    return this.answersView;
  }

  get requestId(): string | number {
    return this.origin.requestId;
  }

  get sessionId(): string | undefined {
    return this.origin.sessionId;
  }

  /** The request's token, else one of the task's own: progress messages become the task's `statusMessage` either way. */
  get progressToken(): string | number | undefined {
    return this.origin.progressToken ?? this.ownToken;
  }

  get client(): ClientInfo | undefined {
    return this.origin.client;
  }

  get protocolVersion(): string | undefined {
    return this.origin.protocolVersion;
  }

  get auth(): McpAuth | undefined {
    return this.origin.auth;
  }

  get headers(): Readonly<Record<string, string>> | undefined {
    return this.origin.headers;
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.origin.meta;
  }

  async startTask(): Promise<boolean> {
    return true; // already one
  }

  async notify(method: string, params: Record<string, unknown>): Promise<void> {
    if (method === 'notifications/progress') {
      if (typeof params.message === 'string') this.hooks.progress(params.message);
      if (params.progressToken === this.ownToken) return; // the client asked for no progress
    }
    // A client that went away must not fail the task.
    await this.origin.server?.notification({ method, params } as never).catch(() => undefined);
  }

  async log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    await this.origin.server?.sendLoggingMessage({ level, data, ...(logger ? { logger } : {}) }, this.origin.sessionId).catch(() => undefined);
  }

  async resourceUpdated(uri: string): Promise<void> {
    await this.origin.resourceUpdated?.(uri);
  }
}
