import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EventStore as SdkEventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

/**
 * Where SSE events are kept so that a client that lost its stream can resume it with `Last-Event-ID` (spec
 * 2025-11-25 basic/transports#resumability-and-redelivery). Events belong to a session: an event id is only
 * ever found, or replayed, for the session that produced it (an id of another session is answered like an
 * unknown one), and a session's events are dropped when it ends.
 */
export interface EventStore {
  /** Keeps one event of `streamId` in `sessionId`; returns its id (unguessable). */
  storeEvent(sessionId: string, streamId: string, message: JSONRPCMessage): Promise<string>;
  /** The stream of `eventId`, when the event belongs to `sessionId`. */
  streamOf(sessionId: string, eventId: string): Promise<string | undefined>;
  /**
   * Sends, in order, the events of `sessionId` that follow `eventId` on its stream; returns that stream's
   * id, or undefined when the event is unknown to this session.
   */
  replayAfter(sessionId: string, eventId: string, send: (eventId: string, message: JSONRPCMessage) => Promise<void>): Promise<string | undefined>;
  /** Forgets every event of a session (it ended, or was evicted). */
  dropSession(sessionId: string): Promise<void>;
}

/** Options of {@link InMemoryEventStore}. */
export interface InMemoryEventStoreOptions {
  /** Bytes (of serialized events) kept for all sessions together; the oldest go first. Default 64 MiB. */
  maxBytes?: number;
  /** Bytes kept for one session; its oldest go first, and a larger single event is not kept. Default 8 MiB. */
  maxSessionBytes?: number;
}

interface StoredEvent {
  readonly id: string;
  readonly session: string;
  readonly stream: string;
  /** The message as JSON: flat, sized exactly, parsed again only for a replay. */
  readonly json: string;
  readonly bytes: number;
  /** The session's next event (its events form a list, oldest first). */
  next?: StoredEvent;
}

/** One session's events: a list from the oldest to the newest, and their size. */
interface SessionEventList {
  bytes: number;
  head?: StoredEvent;
  tail?: StoredEvent;
}

/** Separates a stream id from the signature in the id of a priming event. */
const PRIMED = '~p~';

function isPriming(message: JSONRPCMessage): boolean {
  for (const _key in message) return false;
  return true;
}

/** What one kept event costs besides its JSON: ids, record, map entries (an estimate, on the safe side). */
const OVERHEAD = 256;

/**
 * The default EventStore: events in memory, bounded in bytes for the process and for each session. One
 * process only: when sessions move between instances, use a shared store. Events leave in the order they
 * came, so the process's oldest event is always the oldest of its session: each session keeps a plain list.
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly sessions = new Map<string, SessionEventList>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxSessionBytes: number;
  /** Signs the ids of priming events, which are not stored (see storeEvent). */
  private readonly key = randomBytes(32);

  constructor(options: InMemoryEventStoreOptions = {}) {
    this.maxBytes = options.maxBytes ?? 64 * 1024 * 1024;
    this.maxSessionBytes = Math.min(options.maxSessionBytes ?? 8 * 1024 * 1024, this.maxBytes);
  }

  /** Bytes kept now, for all sessions. */
  get size(): number {
    return this.bytes;
  }

  async storeEvent(sessionId: string, streamId: string, message: JSONRPCMessage): Promise<string> {
    // Kept strings are made flat: Node's randomUUID() (the SDK's stream ids) returns a rope of some twenty
    // string pieces, about 0.7 KiB each while it is held.
    // A stream's priming event (an empty message, sent first so a client can resume a stream that has sent
    // nothing else) is not kept: its id is the stream's id signed for the session, which costs no memory while
    // a session sits idle, and a resumption from it replays the stream from its start.
    if (isPriming(message)) return `${streamId}${PRIMED}${this.sign(sessionId, streamId)}`;
    const stream = flat(streamId);
    const id = flat(`${stream}_${randomBytes(16).toString('hex')}`);
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json) + stream.length + id.length + OVERHEAD;
    if (bytes > this.maxSessionBytes) return id; // never kept: a resumption after it starts from the next event
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = { bytes: 0 }));
    const event: StoredEvent = { id, session: sessionId, stream, json, bytes };
    this.events.set(id, event);
    if (session.tail) session.tail.next = event;
    else session.head = event;
    session.tail = event;
    session.bytes += bytes;
    this.bytes += bytes;
    while (session.bytes > this.maxSessionBytes) this.forgetOldest(session);
    while (this.bytes > this.maxBytes) this.forgetOldest(this.sessions.get(this.events.values().next().value!.session)!);
    return id;
  }

  async streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    const primed = this.primedStream(sessionId, eventId);
    if (primed !== undefined) return primed;
    const event = this.events.get(eventId);
    return event?.session === sessionId ? event.stream : undefined;
  }

  async replayAfter(
    sessionId: string,
    eventId: string,
    send: (eventId: string, message: JSONRPCMessage) => Promise<void>,
  ): Promise<string | undefined> {
    const primed = this.primedStream(sessionId, eventId);
    const last = primed === undefined ? this.events.get(eventId) : undefined;
    if (primed === undefined && last?.session !== sessionId) return undefined;
    const stream = primed ?? last!.stream;
    const later: StoredEvent[] = [];
    for (let event = last ? last.next : this.sessions.get(sessionId)?.head; event; event = event.next) if (event.stream === stream) later.push(event);
    for (const event of later) await send(event.id, JSON.parse(event.json) as JSONRPCMessage);
    return stream;
  }

  async dropSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    for (let event = session.head; event; event = event.next) this.events.delete(event.id);
    this.bytes -= session.bytes;
    this.sessions.delete(sessionId);
  }

  private sign(sessionId: string, streamId: string): string {
    return createHmac('sha256', this.key).update(`${sessionId}\u0000${streamId}`).digest('base64url').slice(0, 32);
  }

  /** The stream of a priming event id signed for this session, or undefined. */
  private primedStream(sessionId: string, eventId: string): string | undefined {
    const at = eventId.lastIndexOf(PRIMED);
    if (at <= 0) return undefined;
    const stream = eventId.slice(0, at);
    const given = Buffer.from(eventId.slice(at + PRIMED.length));
    const expected = Buffer.from(this.sign(sessionId, stream));
    return given.length === expected.length && timingSafeEqual(given, expected) ? stream : undefined;
  }

  private forgetOldest(session: SessionEventList): void {
    const oldest = session.head!;
    this.events.delete(oldest.id);
    session.head = oldest.next;
    if (!session.head) session.tail = undefined;
    session.bytes -= oldest.bytes;
    this.bytes -= oldest.bytes;
    if (!session.head) this.sessions.delete(oldest.session);
  }
}

/**
 * The SDK transport's view of one session's events. A store that fails (a shared store out of reach) never
 * fails the call: the event is sent without being kept (it cannot be replayed), and the failure is logged.
 * A class, not closures: idle sessions should cost little.
 */
export class SessionEvents implements SdkEventStore {
  constructor(
    private readonly store: EventStore,
    private readonly sessionId: string,
    private readonly logger: { warn(message: string): void },
  ) {}

  storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    return this.store.storeEvent(this.sessionId, streamId, message).catch((error: unknown) => {
      this.failed('keep an event (it cannot be replayed)', error);
      return `${streamId}_${randomBytes(16).toString('hex')}`;
    });
  }

  getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.store.streamOf(this.sessionId, eventId).catch((error: unknown) => this.failed('look up an event', error));
  }

  // The transport asked getStreamIdForEventId first: an event of another session never gets here.
  async replayEventsAfter(eventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const stream = await this.store.replayAfter(this.sessionId, eventId, send).catch((error: unknown) => this.failed('replay events', error));
    return stream ?? '';
  }

  private failed(what: string, error: unknown): undefined {
    this.logger.warn(`HTTP: the event store could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  }
}

/** A flat copy of `text` (a rope of concatenated pieces holds every piece while it lives). */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
