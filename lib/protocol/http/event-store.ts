import { randomUUID } from 'node:crypto';
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
    const eventId = `${streamId}_${randomUUID()}`;
    this.events.set(eventId, { streamId, message });
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
