import type { Server } from '@modelcontextprotocol/server';
import type { ServerLogger } from '../invocation';

/** One connected session: its server instance and the resource URIs it subscribed to. */
export interface Session {
  readonly server: Server;
  readonly subscriptions: Set<string>;
}

/**
 * The live sessions of the application, so that changes reach them: `list_changed` notifications go to
 * every session, `resources/updated` only to the sessions subscribed to that URI (spec: server/resources
 * #subscriptions).
 */
export class SessionHub {
  private readonly sessions = new Set<Session>();

  constructor(private readonly logger: ServerLogger) {}

  open(server: Server): Session {
    const session: Session = { server, subscriptions: new Set() };
    this.sessions.add(session);
    const previous = server.onclose;
    server.onclose = () => {
      this.sessions.delete(session);
      previous?.();
    };
    return session;
  }

  get size(): number {
    return this.sessions.size;
  }

  listChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    for (const { server } of this.sessions) {
      const send =
        kind === 'tools' ? server.sendToolListChanged() : kind === 'prompts' ? server.sendPromptListChanged() : server.sendResourceListChanged();
      void send.catch((error: unknown) => this.dropped(`notifications/${kind}/list_changed`, error));
    }
  }

  async resourceUpdated(uri: string): Promise<void> {
    // 2025 eras subscribe with resources/subscribe (tracked here); on 2026-07-28 the client's
    // subscriptions/listen filter decides, and the SDK delivers only to streams that asked for the URI.
    const sends = [...this.sessions]
      .filter((session) => session.subscriptions.has(uri) || isModern(session.server))
      .map((session) => session.server.sendResourceUpdated({ uri }).catch((error: unknown) => this.dropped('notifications/resources/updated', error)));
    await Promise.all(sends);
  }

  private dropped(method: string, error: unknown): void {
    this.logger.warn(`Could not send ${method}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function isModern(server: Server): boolean {
  return (server.getNegotiatedProtocolVersion() ?? '') >= '2026-07-28';
}
