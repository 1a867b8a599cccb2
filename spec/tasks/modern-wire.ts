import { JSON_AND_SSE, messagesOf, rawRequest } from '../support/http-helpers';
import { requestFrom, type Peer } from './legacy-wire';
import { waitFor } from '../support/waiting';

/** The tasks extension as a 2026-07-28 client declares it. */
export const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** A client that declares the extension and answers elicitations. */
export const TASKS_AND_ELICITATION = { ...TASKS, elicitation: {} };

export interface Answer {
  status: number;
  result?: any;
  error?: { code: number; message: string; data?: any };
}

/**
 * A 2026-07-28 client over raw HTTP, as the conformance harness speaks it: every request carries the envelope
 * (protocol version, client info, capabilities) and the Mcp-Method / Mcp-Name headers. The SDK v2 client
 * cannot read a `resultType: "task"` answer to tools/call (it refuses unknown result types), so the task
 * specs of this revision talk to the real server over its real wire. With `peer`, its connections come from
 * `peer.localAddress` (a loopback address of its own) and carry `peer.token`.
 */
export function modernClient(url: string, capabilities: Record<string, unknown> = TASKS_AND_ELICITATION, headers: Record<string, string> = {}, peer?: Peer) {
  let id = 0;
  return async (method: string, params: Record<string, any> = {}, extraHeaders: Record<string, string> = {}): Promise<Answer> => {
    const name = params.taskId ?? params.name ?? params.uri;
    const body = {
      jsonrpc: '2.0',
      id: ++id,
      method,
      params: {
        ...params,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'tasks-spec', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': capabilities,
          ...params._meta,
        },
      },
    };
    const send = peer ? (options: Parameters<typeof rawRequest>[1]) => requestFrom(url, peer, options) : (options: Parameters<typeof rawRequest>[1]) => rawRequest(url, options);
    const response = await send({
      headers: {
        ...JSON_AND_SSE,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': method,
        ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
        ...headers,
        ...extraHeaders,
      },
      body: JSON.stringify(body),
    });
    const reply = messagesOf(response.body).find((message) => message.id === body.id);
    return { status: response.status, ...(reply?.result ? { result: reply.result } : {}), ...(reply?.error ? { error: reply.error } : {}) };
  };
}

/** Polls tasks/get (as a client does: tasks have no push channel here) until `done(task)` holds. */
export function pollTask(send: ReturnType<typeof modernClient>, taskId: string, done: (task: any) => boolean): Promise<any> {
  return waitFor(
    async () => {
      const { result, error } = await send('tasks/get', { taskId });
      if (error) throw new Error(`tasks/get failed: ${error.code} ${error.message}`);
      return done(result) ? result : undefined;
    },
    { what: `task ${taskId} to reach the expected state` },
  );
}
