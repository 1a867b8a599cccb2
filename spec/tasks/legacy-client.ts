import type { Client } from '@modelcontextprotocol/client';

/** Accepts any result: the task methods have no typed surface in the SDK client (2025-11-25 wire vocabulary). */
const ANY = {
  '~standard': { version: 1, vendor: 'spec', validate: (value: unknown) => ({ value }) },
} as const;

/** A 2025-11-25 request through the SDK client, for the methods its typed API does not offer (tasks). */
export function legacyRequest(client: Client, method: string, params: Record<string, unknown> = {}): Promise<any> {
  return client.request({ method, params } as never, ANY as never);
}
