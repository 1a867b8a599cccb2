import { randomBytes } from 'node:crypto';
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
}

/** What one kept event costs besides its JSON: ids, record, map entries (an estimate, on the safe side). */
const OVERHEAD = 256;

/**
 * The default EventStore: events in memory, bounded in bytes for the process and for each session. One
 * process only: when sessions move between instances, use a shared store.
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, StoredEvent>();
  private readonly sessions = new Map<string, { bytes: number; events: Set<StoredEvent> }>();
  private bytes = 0;
  private readonly maxBytes: number;
  private readonly maxSessionBytes: number;

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
    const stream = flat(streamId);
    const id = flat(`${stream}_${randomBytes(16).toString('hex')}`);
    const json = JSON.stringify(message);
    const bytes = Buffer.byteLength(json) + stream.length + id.length + OVERHEAD;
    if (bytes > this.maxSessionBytes) return id; // never kept: a resumption after it starts from the next event
    let session = this.sessions.get(sessionId);
    if (!session) this.sessions.set(sessionId, (session = { bytes: 0, events: new Set() }));
    const event: StoredEvent = { id, session: sessionId, stream, json, bytes };
    this.events.set(id, event);
    session.events.add(event);
    session.bytes += bytes;
    this.bytes += bytes;
    while (session.bytes > this.maxSessionBytes) this.forget(session.events.values().next().value!);
    while (this.bytes > this.maxBytes) this.forget(this.events.values().next().value!);
    return id;
  }

  async streamOf(sessionId: string, eventId: string): Promise<string | undefined> {
    const event = this.events.get(eventId);
    return event?.session === sessionId ? event.stream : undefined;
  }

  async replayAfter(
    sessionId: string,
    eventId: string,
    send: (eventId: string, message: JSONRPCMessage) => Promise<void>,
  ): Promise<string | undefined> {
    const last = this.events.get(eventId);
    if (last?.session !== sessionId) return undefined;
    const later: StoredEvent[] = [];
    let after = false;
    for (const event of this.sessions.get(sessionId)!.events) {
      if (after && event.stream === last.stream) later.push(event);
      if (event === last) after = true;
    }
    for (const event of later) await send(event.id, JSON.parse(event.json) as JSONRPCMessage);
    return last.stream;
  }

  async dropSession(sessionId: string): Promise<void> {
    const session = this.sessions.get(sessionId);
    if (!session) return;
    for (const event of session.events) this.events.delete(event.id);
    this.bytes -= session.bytes;
    this.sessions.delete(sessionId);
  }

  private forget(event: StoredEvent): void {
    this.events.delete(event.id);
    const session = this.sessions.get(event.session)!;
    session.events.delete(event);
    session.bytes -= event.bytes;
    this.bytes -= event.bytes;
    if (session.events.size === 0) this.sessions.delete(event.session);
  }
}

/**
 * The SDK transport's view of one session's events. A store that fails (a shared store out of reach) never
 * fails the call: the event is sent without being kept (it cannot be replayed), and the failure is logged.
 */
export function sessionEvents(store: EventStore, sessionId: string, warn: (message: string) => void): SdkEventStore {
  const failed = (what: string) => (error: unknown) => {
    warn(`HTTP: the event store could not ${what}: ${error instanceof Error ? error.message : String(error)}`);
    return undefined;
  };
  return {
    storeEvent: (streamId, message) =>
      store.storeEvent(sessionId, streamId, message).catch((error: unknown) => {
        failed('keep an event (it cannot be replayed)')(error);
        return `${streamId}_${randomBytes(16).toString('hex')}`;
      }),
    getStreamIdForEventId: (eventId) => store.streamOf(sessionId, eventId).catch(failed('look up an event')),
    // The transport asked streamOf first: an event of another session never gets here.
    replayEventsAfter: async (eventId, { send }) => (await store.replayAfter(sessionId, eventId, send).catch(failed('replay events'))) ?? '',
  };
}

/** A flat copy of `text` (a rope of concatenated pieces holds every piece while it lives). */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
