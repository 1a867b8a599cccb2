import { randomBytes } from 'node:crypto';
import type { EventStore, JSONRPCMessage } from '@modelcontextprotocol/server';

export type { EventStore };

/**
 * The default EventStore: keeps the most recent `capacity` SSE events in memory, so a client that lost its
 * stream can resume with `Last-Event-ID` (spec 2025-11-25 basic/transports#resumability-and-redelivery).
 * One process only; supply your own EventStore (Redis, …) when sessions move between instances.
 */
export class InMemoryEventStore implements EventStore {
  private readonly events = new Map<string, { streamId: string; message: JSONRPCMessage }>();

  constructor(private readonly capacity = 10_000) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    // Kept strings are made flat: Node's randomUUID() (the SDK's stream ids) returns a rope of some twenty
    // string pieces, about 0.7 KiB each while it is held. The random suffix keeps ids unguessable even on
    // streams whose id is fixed (the standalone GET stream).
    const stream = flat(streamId);
    const eventId = flat(`${stream}_${randomBytes(16).toString('hex')}`);
    this.events.set(eventId, { streamId: stream, message });
    if (this.events.size > this.capacity) this.events.delete(this.events.keys().next().value!);
    return eventId;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.get(eventId)?.streamId;
  }

  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const streamId = this.events.get(lastEventId)?.streamId;
    if (!streamId) return '';
    let after = false;
    for (const [id, event] of this.events) {
      if (after && event.streamId === streamId) await send(id, event.message);
      if (id === lastEventId) after = true;
    }
    return streamId;
  }
}

/** A flat copy of `text` (a rope of concatenated pieces holds every piece while it lives). */
function flat(text: string): string {
  return Buffer.from(text, 'utf8').toString('utf8');
}
