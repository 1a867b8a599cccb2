import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport, type AuthInfo, type Server } from '@modelcontextprotocol/server';
import { ownerOf } from '../../context';
import type { ServerLogger } from '../../interfaces';
import { fromAuthInfo } from '../../server/auth-info';
import type { HttpServing } from '../http-serving';
import { SessionEvents, type EventStore } from './event-store';
import { jsonRpcError } from './http-messages';
import type { Admission, HttpLimits } from './http-limits';
import type { HttpOptions } from './http-options';
import { peerHeader } from '../../server/peer-headers';
import { clientKeyOf } from '../../server/client-address';
import { FairShareTable } from './fair-share';
import type { SessionStore } from './session-store';

/** What a framework adapter passes along: a body it already parsed, the verified auth of the request. */
export interface RequestOptions {
  parsedBody?: unknown;
  authInfo?: AuthInfo;
}

/** The defaults of the HTTP limits not derived from the heap (docs/reliability.md lists them all). */
export const DEFAULTS = {
  sessionIdleTimeoutMs: 30 * 60_000,
  handshakeTimeoutMs: 30_000,
  maxRequestBodySize: 4 * 1024 * 1024,
  drainTimeoutMs: 10_000,
};



interface LegacySession {
  readonly id: string;
  readonly transport: WebStandardStreamableHTTPServerTransport;
  readonly server: Server;
  /** Who opened it (for maxSessionsPerClient), when known. */
  readonly client: string | undefined;
  /** Whose it is (with authorization: the issuer and subject of the token that opened it). */
  readonly owner: string | undefined;
  lastSeen: number;
  /** Until `notifications/initialized`: the handshake deadline. */
  handshake?: NodeJS.Timeout;
}

/**
 * The 2025-era sessions of one endpoint: opened by `initialize`, bounded (in all, per client, by handshake and
 * idle time), their events kept per session, and (with a session store) served by any instance.
 */
export class LegacySessions {
  private readonly sessions = new Map<string, LegacySession>();
  /** The sessions by client (and those being opened): the per-client bound and the fair share of a full table. */
  private readonly holders = new FairShareTable<LegacySession>();
  private readonly reviving = new Map<string, Promise<LegacySession | Refusal | undefined>>();
  private readonly sweeper: NodeJS.Timeout;
  private closing = false;
  private evicting = false;
  /** When a full table last made a client give up a session: logged at most once a minute. */
  private sharedAt = 0;

  constructor(
    private readonly serving: HttpServing,
    private readonly options: HttpOptions,
    private readonly limits: HttpLimits,
    private readonly admission: Admission,
    private readonly logger: ServerLogger,
    /** Undefined: no events are kept (`eventStore: false`), and no stream can be resumed. */
    private readonly eventStore: EventStore | undefined,
  ) {
    const ttl = options.sessionIdleTimeoutMs ?? DEFAULTS.sessionIdleTimeoutMs;
    this.sweeper = setInterval(() => void this.evictIdle(ttl), Math.max(250, Math.min(ttl / 4, 10_000)));
    this.sweeper.unref();
  }

  /** Ends every session here (aborting what still runs); a shared store keeps them for other instances. */
  async close(): Promise<void> {
    this.closing = true;
    clearInterval(this.sweeper);
    const open = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.allSettled(open.map((s) => this.end(s, false)));
  }

  /** One 2025-era request (spec 2025-11-25 basic/transports#session-management). */
  async handle(request: Request, options: RequestOptions): Promise<Response> {
    const id = request.headers.get('mcp-session-id');
    const owner = options.authInfo ? ownerOf(fromAuthInfo(options.authInfo)) : undefined;
    if (id) {
      const found = this.sessions.get(id) ?? (await this.revive(id, request, owner));
      if (found && 'status' in found) return refusalResponse(found);
      // Another subject's session is answered as an unknown one: its existence is not revealed.
      if (!found || found.owner !== owner) return jsonRpcError(404, -32001, 'Session not found: it expired or was terminated. Start a new session with initialize.');
      this.seen(found);
      return found.transport.handleRequest(request, options);
    }
    if (request.method !== 'POST' || !(await isInitialize(request, options.parsedBody))) {
      return jsonRpcError(400, -32000, 'Bad Request: Mcp-Session-Id header is required (start a session with initialize).');
    }
    const client = this.clientOf(request, owner);
    const admitted = await this.admit(client);
    if ('status' in admitted) return refusalResponse(admitted);
    return this.open(request, options, client, owner, admitted);
  }

  /**
   * Who a request comes from: `clientKey`'s answer, else the token's subject, else the remote address; an IPv6
   * address by its network (`ipv6Prefix`), a long key by its digest (clientKeyOf).
   */
  private clientOf(request: Request, owner: string | undefined): string | undefined {
    const remote = request.headers.get(peerHeader()) ?? undefined;
    const key = this.options.clientKey ? this.options.clientKey(request, remote) : (owner ?? remote);
    return key === undefined ? undefined : clientKeyOf(key, this.limits.ipv6Prefix);
  }

  /**
   * A place for one more session of `client` (the function that gives it back if the session never opens), or
   * why not. A full table: when the client holds its most or its fair share, 503; else the least recently used
   * session of the client holding the most ends to make room (a newcomer is not locked out for the idle timeout
   * by whoever filled the table, and holding places costs activity). Then the heap nearly full (503), and the
   * client at `maxSessionsPerClient` (429).
   */
  private async admit(client: string | undefined): Promise<(() => void) | Refusal> {
    const most = this.limits.maxSessionsPerClient;
    const atMost = client !== undefined && this.holders.count(client) >= most;
    while (this.holders.size >= this.limits.maxSessions) {
      const victim = atMost ? undefined : this.holders.fairShareVictim(client);
      if (!victim) return { status: 503, message: 'Too many sessions: try again later.' };
      this.logShare();
      // Ended here as an idle one is (a shared session store may serve it again): out of the count at once.
      this.sessions.delete(victim.id);
      await this.end(victim, false);
    }
    // The heap is nearly full: sessions idle the longest make room, and this one waits for it.
    if (this.admission.underPressure()) {
      void this.evictUnderPressure();
      return { status: 503, message: 'Server busy: out of memory for new sessions. Retry shortly.' };
    }
    if (client !== undefined && this.holders.count(client) >= most) {
      return { status: 429, message: `Too many sessions from this client (at most ${most}): close one (DELETE with its Mcp-Session-Id) or reuse it.` };
    }
    return this.holders.reserve(client);
  }

  private logShare(): void {
    const now = Date.now();
    if (now - this.sharedAt < 60_000) return;
    this.sharedAt = now;
    this.logger.warn(
      `HTTP: all ${this.limits.maxSessions} sessions are open: a new client's session ends the least recently used session of the client holding the most (maxSessions, maxSessionsPerClient).`,
    );
  }

  private async open(request: Request, options: RequestOptions, client: string | undefined, owner: string | undefined, release: () => void): Promise<Response> {
    const id = newSessionId();
    const store = this.options.sessionStore;
    let initialize: Record<string, unknown> | undefined;
    let session: LegacySession;
    let response: Response;
    try {
      initialize = store ? await initializeParams(request, options.parsedBody) : undefined; // before the body is read
      session = await this.create(id, client, owner);
      response = await session.transport.handleRequest(request, options);
    } catch (error) {
      release();
      throw error;
    }
    // Registered before the response (and with it the session id) reaches the client. Not an initialize, or a
    // failed one: the transport answered 400 and no session exists.
    if (session.transport.sessionId !== id) {
      release();
      await this.end(session, true);
      return response;
    }
    this.register(session, release);
    // A client that never completes the handshake does not keep its session (nor a place under maxSessions).
    // A session that sent anything since `initialize` is alive: its `initialized` may still be queued behind a
    // busy server, and dropping it then would turn load into 404s.
    const opened = session.lastSeen;
    session.handshake = setTimeout(() => {
      if (session.lastSeen === opened) void this.drop(id, true);
    }, this.options.handshakeTimeoutMs ?? DEFAULTS.handshakeTimeoutMs);
    session.handshake.unref();
    session.server.oninitialized = () => {
      clearTimeout(session.handshake);
      session.handshake = undefined;
      session.server.oninitialized = undefined;
    };
    if (store && initialize) await store.save(id, { initialize, ...(owner !== undefined ? { owner } : {}) }).catch((error: unknown) => this.warn('remember a session', error));
    return response;
  }

  /** A session's server and transport, connected; its events go to the store under its id. */
  private async create(id: string, client: string | undefined, owner: string | undefined): Promise<LegacySession> {
    // One connection object per session: the hub times the session by it (mcp.server.session.duration).
    const server = this.serving.servers.create({ transport: 'http' });
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      onsessionclosed: this.dropSession,
      enableJsonResponse: this.options.jsonResponse ?? false,
      // The session's own view of the store: events of other sessions are never found, nor replayed.
      ...(this.eventStore ? { eventStore: new SessionEvents(this.eventStore, id, this.logger) } : {}),
      maxRequestBodySize: this.limits.maxRequestBodySize,
    });
    await server.connect(transport);
    return { id, transport, server, client, owner, lastSeen: Date.now() };
  }

  /** A session opened under the place `release` gives back is now held (and counted) as its client's. */
  private register(session: LegacySession, release: () => void): void {
    this.sessions.set(session.id, session);
    this.holders.add(session, release);
  }

  /**
   * A session another instance opened (or this one, before a restart): found in the session store, it is
   * opened here again by replaying the client's `initialize` and `notifications/initialized` to a new server,
   * under the same bounds as a new session (in all, per client, the fair share), counted as the requester's.
   */
  private revive(id: string, request: Request, owner: string | undefined): Promise<LegacySession | Refusal | undefined> {
    const store = this.options.sessionStore;
    if (!store || this.closing) return Promise.resolve(undefined);
    let pending = this.reviving.get(id);
    if (!pending) {
      pending = this.reopen(id, request, owner, store).finally(() => this.reviving.delete(id));
      this.reviving.set(id, pending);
    }
    return pending;
  }

  private async reopen(id: string, request: Request, owner: string | undefined, store: SessionStore): Promise<LegacySession | Refusal | undefined> {
    const record = await store.load(id).catch((error: unknown) => this.warn('look up a session', error));
    // Another subject's session is not opened for this one (it would be answered as unknown anyway).
    if (!record || record.owner !== owner) return undefined;
    const client = this.clientOf(request, owner);
    const admitted = await this.admit(client);
    if ('status' in admitted) return admitted;
    let session: LegacySession;
    try {
      session = await this.create(id, client, record.owner);
      const post = (body: object, headers: Record<string, string> = {}) =>
        session.transport
          .handleRequest(new Request(request.url, { method: 'POST', headers: { ...REVIVE_HEADERS, ...headers }, body: JSON.stringify(body) }))
          .then((response) => response.text());
      await post({ jsonrpc: '2.0', id: 0, method: 'initialize', params: record.initialize });
      if (session.transport.sessionId !== id) {
        admitted();
        await this.end(session, false);
        return undefined;
      }
      const version = String(record.initialize.protocolVersion ?? '');
      await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, { 'mcp-session-id': id, 'mcp-protocol-version': version });
    } catch (error) {
      admitted();
      throw error;
    }
    this.register(session, admitted);
    return session;
  }

  /** Marks a session used; with a session store, keeps it from expiring there (at most once a minute). */
  private seen(session: LegacySession): void {
    const now = Date.now();
    const store = this.options.sessionStore;
    if (store && now - session.lastSeen > 60_000) void store.touch(session.id).catch((error: unknown) => this.warn('keep a session', error));
    session.lastSeen = now;
  }

  private warn(what: string, error: unknown): undefined {
    this.logger.warn(`HTTP: could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }

  /** The client ended its session (DELETE): it is forgotten everywhere. */
  private readonly dropSession = (id: string): void => void this.drop(id, true);

  private async drop(id: string, forget: boolean): Promise<void> {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    await this.end(session, forget);
  }

  /**
   * Ends a session here. `forget`: it ended for good (DELETE, no handshake), so its events and its record go
   * too; otherwise (idle here, shutdown) another instance may still serve it when a session store is shared,
   * and only an instance-local store drops its events.
   */
  private async end(session: LegacySession, forget: boolean): Promise<void> {
    clearTimeout(session.handshake);
    this.holders.delete(session);
    await session.transport.close().catch(() => undefined);
    await session.server.close().catch(() => undefined);
    const store = this.options.sessionStore;
    if (forget && store) await store.delete(session.id).catch((error: unknown) => this.warn('forget a session', error));
    if (forget || !store) await this.eventStore?.dropSession(session.id).catch((error: unknown) => this.warn('drop the events of a session', error));
    // Its tasks go with it (and their runs stop), so that they hold no place of the client's for their TTL.
    if (forget || !store) await this.serving.sessionEnded(session.id);
  }

  private async evictIdle(ttl: number): Promise<void> {
    const now = Date.now();
    for (const [id, session] of this.sessions) {
      if (now - session.lastSeen > ttl) await this.drop(id, false);
    }
    if (this.admission.underPressure()) await this.evictUnderPressure();
  }

  /**
   * Under memory pressure, the tenth of the sessions idle the longest (and at least a minute) are ended here (as
   * idle ones are: with a shared session store another instance may serve them again).
   */
  private async evictUnderPressure(): Promise<void> {
    if (this.evicting) return;
    this.evicting = true;
    try {
      const now = Date.now();
      const idle = [...this.sessions.values()].filter((session) => now - session.lastSeen >= PRESSURE_IDLE_MS).sort((a, b) => a.lastSeen - b.lastSeen);
      const count = Math.max(1, Math.ceil(this.sessions.size / 10));
      if (idle.length > 0) this.logger.warn(`HTTP: memory is short: ending ${Math.min(count, idle.length)} idle sessions.`);
      for (const session of idle.slice(0, count)) await this.drop(session.id, false);
    } finally {
      this.evicting = false;
    }
  }
}

/** Sessions used within this long are never ended for memory: they are in use. */
const PRESSURE_IDLE_MS = 60_000;

const REVIVE_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** Why a session is not opened: the status and message of the answer (which asks to retry in 5 s). */
interface Refusal {
  readonly status: 429 | 503;
  readonly message: string;
}

function refusalResponse(refusal: Refusal): Response {
  return jsonRpcError(refusal.status, -32000, refusal.message, { 'retry-after': '5' });
}

/** The params of the `initialize` in a request body. */
async function initializeParams(request: Request, parsedBody: unknown): Promise<Record<string, unknown> | undefined> {
  try {
    const body: unknown = parsedBody !== undefined ? parsedBody : await request.clone().json();
    const messages = (Array.isArray(body) ? body : [body]) as { method?: unknown; params?: unknown }[];
    const params = messages.find((m) => m?.method === 'initialize')?.params;
    return typeof params === 'object' && params !== null ? (params as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

async function isInitialize(request: Request, parsedBody: unknown): Promise<boolean> {
  try {
    const body: unknown = parsedBody !== undefined ? parsedBody : await request.clone().json();
    const messages = Array.isArray(body) ? body : [body];
    return messages.some((m) => typeof m === 'object' && m !== null && (m as { method?: unknown }).method === 'initialize');
  } catch {
    return true; // not JSON: let the transport answer with its parse error (-32700)
  }
}

/** Cryptographically random (spec: session IDs SHOULD be globally unique and cryptographically secure). */
function newSessionId(): string {
  return randomUUID();
}
