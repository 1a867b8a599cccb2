import type { RequestChannel } from '../../context';
import type { ResolvedStateOptions } from '../../state';
import type { QueuedTask } from '../../tasks';
import type { TaskOrigin } from './tasks-channel';
import { neverAborted } from '../../runtime/never-aborted';

/** What a queued run carries of the request that created its task (JSON; never the bearer token). */
export function queuedOf(
  origin: RequestChannel,
  call: { readonly taskId: string; readonly owner: string; readonly client?: string; readonly tool: string; readonly args?: Record<string, unknown>; readonly legacy: boolean },
): QueuedTask {
  const { requestId, sessionId, protocolVersion, client, auth, meta } = origin;
  const stateOwner = origin.state?.owner;
  return {
    ...call,
    request: {
      requestId,
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(protocolVersion !== undefined ? { protocolVersion } : {}),
      ...(client ? { client: { name: client.name, version: client.version, capabilities: client.capabilities } } : {}),
      ...(auth
        ? {
            auth: {
              clientId: auth.clientId,
              scopes: [...auth.scopes],
              claims: auth.claims,
              ...(auth.subject !== undefined ? { subject: auth.subject } : {}),
              ...(auth.issuer !== undefined ? { issuer: auth.issuer } : {}),
              ...(auth.expiresAt !== undefined ? { expiresAt: auth.expiresAt } : {}),
            },
          }
        : {}),
      ...(meta ? { meta } : {}),
      ...(stateOwner !== undefined ? { stateOwner } : {}),
    },
  };
}

/**
 * The origin of a run a worker took from the queue: the request as it was, without a connection to the client.
 * Progress messages reach the client as the task's `statusMessage` (through the store); notifications and logs
 * have no stream to go to and are dropped; input requests wait in the store for `tasks/update`.
 */
export function queuedOrigin(task: QueuedTask, state: ResolvedStateOptions): TaskOrigin {
  const { request } = task;
  return {
    signal: neverAborted(), // no request aborts it: a task's own signal replaces it
    requestId: request.requestId,
    sessionId: request.sessionId,
    progressToken: undefined,
    protocolVersion: request.protocolVersion,
    ...(request.client ? { client: request.client } : {}),
    ...(request.auth ? { auth: { ...request.auth, token: '' } } : {}),
    ...(request.meta ? { meta: request.meta } : {}),
    state: { ...state, owner: request.stateOwner },
    notify: async () => undefined,
    log: async () => undefined,
  };
}
