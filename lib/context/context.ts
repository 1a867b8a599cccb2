/** MCP log levels (RFC 5424 severities), lowest first. */
export type LogLevel = 'debug' | 'info' | 'notice' | 'warning' | 'error' | 'critical' | 'alert' | 'emergency';

/**
 * What the protocol layer provides for one request. The Context is built on it, so nothing here depends on
 * the SDK.
 */
export interface RequestChannel {
  readonly signal: AbortSignal;
  readonly requestId: string | number;
  readonly sessionId: string | undefined;
  readonly progressToken: string | number | undefined;
  /** The client as it introduced itself (initialize, or the 2026-07-28 per-request envelope). */
  readonly client?: ClientInfo;
  /** The protocol revision this request is served on. */
  readonly protocolVersion?: string;
  notify(method: string, params: Record<string, unknown>): Promise<void>;
  log(level: LogLevel, data: unknown, logger?: string): Promise<void>;
  /** Tells subscribed sessions that a resource changed. */
  resourceUpdated?(uri: string): Promise<void>;
}

/** Who is calling: the client's name, version and declared capabilities. */
export interface ClientInfo {
  readonly name?: string;
  readonly version?: string;
  readonly capabilities: Readonly<Record<string, unknown>>;
}

/** Sends log messages to the client (`notifications/message`), honouring the level the client asked for. */
export interface ContextLogger {
  debug(data: unknown, logger?: string): Promise<void>;
  info(data: unknown, logger?: string): Promise<void>;
  notice(data: unknown, logger?: string): Promise<void>;
  warning(data: unknown, logger?: string): Promise<void>;
  error(data: unknown, logger?: string): Promise<void>;
  critical(data: unknown, logger?: string): Promise<void>;
  alert(data: unknown, logger?: string): Promise<void>;
  emergency(data: unknown, logger?: string): Promise<void>;
}

/**
 * The request a tool is serving. Inject it with `@Ctx()`; it never appears in the input schema.
 *
 * @example
 * @Tool()
 * async crunch(@Param() n: number, @Ctx() ctx: Context) {
 *   await ctx.log.info(`crunching ${n}`);
 *   await ctx.reportProgress(50, 100, 'half way');
 *   if (ctx.signal.aborted) throw new ToolError('cancelled');
 * }
 */
export class Context {
  /** Log messages for the client. */
  readonly log: ContextLogger;
  private lastProgress = Number.NEGATIVE_INFINITY;

  constructor(private readonly channel: RequestChannel) {
    const send = (level: LogLevel) => (data: unknown, logger?: string) => channel.log(level, data, logger);
    this.log = {
      debug: send('debug'),
      info: send('info'),
      notice: send('notice'),
      warning: send('warning'),
      error: send('error'),
      critical: send('critical'),
      alert: send('alert'),
      emergency: send('emergency'),
    };
  }

  /** Aborted when the client cancels the request or the connection closes. */
  get signal(): AbortSignal {
    return this.channel.signal;
  }

  /** The JSON-RPC id of the request. */
  get requestId(): string | number {
    return this.channel.requestId;
  }

  /** The transport session (HTTP), or undefined (stdio, in-memory). */
  get sessionId(): string | undefined {
    return this.channel.sessionId;
  }

  /** The client: name, version and the capabilities it declared. */
  get client(): ClientInfo {
    return this.channel.client ?? { capabilities: {} };
  }

  /** The protocol revision of this request, e.g. '2025-11-25' or '2026-07-28'. */
  get protocolVersion(): string | undefined {
    return this.channel.protocolVersion;
  }

  /** Sends `notifications/resources/updated` for `uri` to every session subscribed to it. */
  async notifyResourceUpdated(uri: string): Promise<void> {
    await this.channel.resourceUpdated?.(uri);
  }

  /**
   * Reports progress to the client. Sent only when the request carries a progress token; values must
   * increase (the spec requires it), so a value not above the last one sent is dropped.
   */
  async reportProgress(progress: number, total?: number, message?: string): Promise<void> {
    const token = this.channel.progressToken;
    if (token === undefined || !(progress > this.lastProgress)) return;
    this.lastProgress = progress;
    const params: Record<string, unknown> = { progressToken: token, progress };
    if (total !== undefined) params.total = total;
    if (message !== undefined) params.message = message;
    await this.channel.notify('notifications/progress', params);
  }
}
