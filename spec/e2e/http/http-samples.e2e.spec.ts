import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { start as startExpress } from '../../../samples/http/express';
import { start as startNodeHttp } from '../../../samples/http/node-http';
import { rawRequest } from '../../support/http-helpers';

describe.each([
  ['node:http', startNodeHttp],
  ['Express', startExpress],
] as const)('samples/http over %s (in process, port 0)', (_name, start) => {
  it.each([undefined, '2026-07-28'] as const)('lists and calls the weather tools with the SDK client (era %s)', async (era) => {
    const sample = await start(0);
    const client = new Client({ name: 'samples-spec', version: '1.0.0' }, era ? { versionNegotiation: { mode: { pin: era } } } : {});
    try {
      expect(sample.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      expect(sample.url).not.toContain(':0/');
      await client.connect(new StreamableHTTPClientTransport(new URL(sample.url)));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['forecast', 'planTrip', 'packingList']);
      const result = await client.callTool({ name: 'forecast', arguments: { city: 'Paris', days: 3 } });
      expect(result.structuredContent).toEqual({ city: 'Paris', high: 8, low: -2, units: 'metric' });
    } finally {
      await client.close();
      await sample.close();
    }
  });

  it('refuses a foreign Host header with 403', async () => {
    const sample = await start(0);
    try {
      const response = await rawRequest(sample.url, {
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', host: 'evil.example.com' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect([response.status, JSON.parse(response.body).error.message]).toEqual([403, 'Invalid Host: evil.example.com']);
    } finally {
      await sample.close();
    }
  });
});
