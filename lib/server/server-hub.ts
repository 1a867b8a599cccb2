import type { Server } from '@modelcontextprotocol/server';
import { isModernRevision } from '../context';
import type { ServerLogger } from '../interfaces';

/** One connected session: its server instance and the resource URIs it subscribed to (made on first subscribe). */
export interface ConnectedServer {
  readonly server: Server;
  subscriptions?: Set<string>;
}

/**
 * The live sessions of the application, so that changes reach them: `list_changed` notifications go to
 * every session, `resources/updated` only to the sessions subscribed to that URI (spec: server/resources
 * #subscriptions).
 */
/** Publishes changes to streams the hub does not hold itself (the HTTP endpoint's subscriptions/listen bus). */
export interface ChangePublisher {
  toolsChanged(): void;
  promptsChanged(): void;
  resourcesChanged(): void;
  resourceUpdated(uri: string): void;
}

export class ServerHub {
  private readonly sessions = new Map<Server, ConnectedServer>();
  private readonly publishers = new Set<ChangePublisher>();

  /** Adds a publisher (2026-07-28 HTTP listeners); returns how to remove it. */
  addPublisher(publisher: ChangePublisher): () => void {
    this.publishers.add(publisher);
    return () => this.publishers.delete(publisher);
  }

  constructor(private readonly logger: ServerLogger) {}

  /** Registers a server; it must call `forget` when it closes (the factory's server does, in `_onclose`/`close`). */
  open(server: Server): ConnectedServer {
    const session: ConnectedServer = { server };
    this.sessions.set(server, session);
    return session;
  }

  /** Forgets a server that is closing (whether or not it was ever connected). */
  forget(server: Server): void {
    this.sessions.delete(server);
  }

  get size(): number {
    return this.sessions.size;
  }

  private batched?: Set<'tools' | 'resources' | 'prompts'>;

  /** Runs `work`; the list changes it makes are sent once per kind when it ends (even if it throws). */
  batch<T>(work: () => T): T {
    if (this.batched) return work();
    const kinds = (this.batched = new Set());
    try {
      return work();
    } finally {
      this.batched = undefined;
      for (const kind of kinds) this.listChanged(kind);
    }
  }

  listChanged(kind: 'tools' | 'resources' | 'prompts'): void {
    if (this.batched) {
      this.batched.add(kind);
      return;
    }
    for (const publisher of this.publishers) {
      if (kind === 'tools') publisher.toolsChanged();
      else if (kind === 'prompts') publisher.promptsChanged();
      else publisher.resourcesChanged();
    }
    for (const server of this.sessions.keys()) {
      if (!server.transport) continue; // built, not connected yet
      if (!server.getCapabilities()[kind]) continue; // a session opened before the first component of this kind
      const send =
        kind === 'tools' ? server.sendToolListChanged() : kind === 'prompts' ? server.sendPromptListChanged() : server.sendResourceListChanged();
      void send.catch((error: unknown) => this.dropped(`notifications/${kind}/list_changed`, error));
    }
  }

  async resourceUpdated(uri: string): Promise<void> {
    for (const publisher of this.publishers) publisher.resourceUpdated(uri);
    // 2025 eras subscribe with resources/subscribe (tracked here); on 2026-07-28 the client's
    // subscriptions/listen filter decides, and the SDK delivers only to streams that asked for the URI.
    const sends = [...this.sessions.values()]
      .filter((session) => session.server.transport !== undefined)
      .filter((session) => session.subscriptions?.has(uri) || (isModern(session.server) && session.server.getCapabilities().resources))
      .map((session) => session.server.sendResourceUpdated({ uri }).catch((error: unknown) => this.dropped('notifications/resources/updated', error)));
    await Promise.all(sends);
  }

  private dropped(method: string, error: unknown): void {
    this.logger.warn(`Could not send ${method}: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** Whether the session speaks protocol revision 2026-07-28 or later. */
export function isModern(server: Server): boolean {
  return isModernRevision(server.getNegotiatedProtocolVersion());
}
