import type { ServerContext } from '@modelcontextprotocol/server';
import type { LogLevel, RequestChannel } from '../context';
import type { ServerLogger } from '../tools';

/** The Context's view of one SDK request: cancellation, ids, and the two ways of talking back. */
export class SdkRequestChannel implements RequestChannel {
  constructor(
    private readonly ctx: ServerContext,
    readonly progressToken: string | number | undefined,
    private readonly logger: ServerLogger,
  ) {}

  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  get requestId(): string | number {
    return this.ctx.mcpReq.id;
  }

  get sessionId(): string | undefined {
    return this.ctx.sessionId;
  }

  // A notification that cannot be delivered (client gone) must not fail the tool: report it and go on.
  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.ctx.mcpReq.notify({ method, params } as never).catch((error: unknown) => this.dropped(method, error));
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    return this.ctx.mcpReq.log(level, data, logger).catch((error: unknown) => this.dropped('notifications/message', error));
  }

  private dropped(method: string, error: unknown): void {
    this.logger.warn(`Could not send ${method}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
