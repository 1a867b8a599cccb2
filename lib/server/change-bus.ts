import type { ServerLogger } from '../interfaces';
import type { ServerHub } from './server-hub';

/** A change that every instance's sessions must hear about. */
export type ChangeMessage = { readonly kind: 'tools' | 'prompts' | 'resources' } | { readonly kind: 'updated'; readonly uri: string };

/** Carries changes between the instances of one server (`app.useBus()`); see `RedisBus`. */
export interface ChangeBus {
  publish(message: ChangeMessage): Promise<void>;
  /** Starts delivering the messages other instances publish. */
  subscribe(deliver: (message: ChangeMessage) => void): Promise<void>;
  close(): Promise<void>;
}

/**
 * Joins the hub to a bus: local changes are published, changes from other instances are delivered to the
 * local sessions and listen streams (and not published again). Returns how to leave the bus.
 */
export async function attachBus(hub: ServerHub, bus: ChangeBus, logger: ServerLogger): Promise<() => Promise<void>> {
  let relaying = false;
  const send = (message: ChangeMessage) => {
    if (relaying) return;
    bus.publish(message).catch((error: unknown) => logger.warn(`Could not publish a change to the other instances: ${describe(error)}`));
  };
  const remove = hub.addPublisher({
    toolsChanged: () => send({ kind: 'tools' }),
    promptsChanged: () => send({ kind: 'prompts' }),
    resourcesChanged: () => send({ kind: 'resources' }),
    resourceUpdated: (uri) => send({ kind: 'updated', uri }),
  });
  // The hub calls its publishers synchronously, so the flag covers exactly the relayed change.
  await bus.subscribe((message) => {
    relaying = true;
    try {
      if (message.kind === 'updated') void hub.resourceUpdated(message.uri);
      else hub.listChanged(message.kind);
    } finally {
      relaying = false;
    }
  });
  return async () => {
    remove();
    await bus.close();
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
