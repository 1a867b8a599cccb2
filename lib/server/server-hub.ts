import type { Server } from '@modelcontextprotocol/server';
import { isModernRevision } from '../context';
import type { McpSessionObserver, ServerLogger } from '../interfaces';
import type { Connection } from './request-channel';

/** One connected session: its server instance and the resource URIs it subscribed to (made on first subscribe). */
export interface ConnectedServer {
  readonly server: Server;
  subscriptions?: Set<string>;
  /** The connection (or stateful HTTP session) the server serves, when it is one: the session it counts in. */
  readonly connection?: Connection;
}

/** A session being timed: since when, and how many of its servers are open (stdio may build one for a probe). */
interface TimedSession {
  readonly startedAt: number;
  servers: number;
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
  private readonly observers = new Set<McpSessionObserver>();
  private readonly timed = new Map<Connection, TimedSession>();

  /** Adds a publisher (2026-07-28 HTTP listeners); returns how to remove it. */
  addPublisher(publisher: ChangePublisher): () => void {
    this.publishers.add(publisher);
    return () => this.publishers.delete(publisher);
  }

  constructor(private readonly logger: ServerLogger) {}

  /** Tells `observer` of each session that ends (`McpSessionObserver`: interceptors and middleware that observe sessions). */
  observe(observer: McpSessionObserver): void {
    this.observers.add(observer);
  }

  /**
   * Registers a server; it must call `forget` when it closes (the factory's server does, in `_onclose`/`close`).
   * With a connection (stdio, in memory, a stateful HTTP session), the server counts in that session, timed from
   * its first server to the close of its last.
   */
  open(server: Server, connection?: Connection): ConnectedServer {
    const session: ConnectedServer = { server, ...(connection ? { connection } : {}) };
    this.sessions.set(server, session);
    if (connection && this.observers.size > 0) {
      const timed = this.timed.get(connection);
      if (timed) timed.servers++;
      else this.timed.set(connection, { startedAt: performance.now(), servers: 1 });
    }
    return session;
  }

  /** Forgets a server that is closing (whether or not it was ever connected); its session ends with its last server. */
  forget(server: Server): void {
    const session = this.sessions.get(server);
    if (!session) return;
    this.sessions.delete(server);
    const connection = session.connection;
    const timed = connection && this.timed.get(connection);
    if (!connection || !timed || --timed.servers > 0) return;
    this.timed.delete(connection);
    const protocolVersion = server.getNegotiatedProtocolVersion();
    const ended = {
      durationMs: performance.now() - timed.startedAt,
      ...(connection.transport ? { transport: connection.transport } : {}),
      ...(protocolVersion ? { protocolVersion } : {}),
    };
    for (const observer of this.observers) {
      try {
        observer.onSessionEnd(ended);
      } catch (error) {
        this.logger.warn(`A session observer failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
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
