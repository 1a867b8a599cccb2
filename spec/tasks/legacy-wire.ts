import { JSON_AND_SSE, messagesOf, rawRequest, type RawResponse } from '../support/http-helpers';
import type { Answer } from './modern-wire';

/** Who a raw client is: its bearer token, and the loopback address its connections come from (127.0.0.x). */
export interface Peer {
  readonly token?: string;
  readonly localAddress?: string;
}

/** One raw HTTP request from `peer.localAddress` (node:http, a fresh connection each time). */
export function requestFrom(url: string, peer: Peer, options: { method?: string; headers?: Record<string, string>; body?: string }): Promise<RawResponse> {
  const headers = { ...options.headers, ...(peer.token ? { authorization: `Bearer ${peer.token}` } : {}) };
  return rawRequest(url, { ...options, headers, ...(peer.localAddress ? { localAddress: peer.localAddress } : {}) });
}

/** A 2025-11-25 session over raw HTTP: its id, a way to send requests in it, and DELETE. */
export interface LegacySession {
  readonly id: string;
  send(method: string, params?: Record<string, unknown>): Promise<Answer>;
  /** DELETE with the session id (the client ends its session); the HTTP status. */
  end(): Promise<number>;
}

/** Opens a 2025-11-25 session as `peer` (initialize, then notifications/initialized). */
export async function openLegacySession(url: string, peer: Peer = {}): Promise<LegacySession> {
  const initialize = {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'tasks-spec', version: '1.0.0' } },
  };
  const opened = await requestFrom(url, peer, { headers: JSON_AND_SSE, body: JSON.stringify(initialize) });
  if (opened.status !== 200) throw new Error(`initialize answered ${opened.status}: ${opened.body.slice(0, 200)}`);
  const id = opened.headers['mcp-session-id'] as string;
  const headers = { ...JSON_AND_SSE, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
  await requestFrom(url, peer, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  let next = 0;
  return {
    id,
    async send(method, params = {}) {
      const body = { jsonrpc: '2.0', id: ++next, method, params };
      const response = await requestFrom(url, peer, { headers, body: JSON.stringify(body) });
      const reply = messagesOf(response.body).find((message) => message.id === body.id);
      return { status: response.status, ...(reply?.result ? { result: reply.result } : {}), ...(reply?.error ? { error: reply.error } : {}) };
    },
    async end() {
      return (await requestFrom(url, peer, { method: 'DELETE', headers })).status;
    },
  };
}
