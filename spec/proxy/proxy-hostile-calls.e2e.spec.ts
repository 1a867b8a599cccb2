import 'reflect-metadata';
import { createServer, request as httpRequest, type ClientRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Injectable, McpFactory, McpModule, Module, Tool, type McpApplication, type McpProxyOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { JSON_AND_SSE, messagesOf, rawRequest } from '../support/http-helpers';
import { waitFor } from '../support/waiting';

/**
 * Issue 38, item 12: calls of a hostile remote. One caller's hanging calls fill its own share of the remote's
 * slots, not everyone's; a 9 MB answer over HTTP fails its request at once, naming the bound.
 */

const HOSTILE = { command: process.execPath, args: [path.join(__dirname, '..', 'fixtures', 'proxy', 'hostile-remote.cjs')] };
const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text;
const logged: string[] = [];
const logger = { error: (m: string) => void logged.push(m), warn: (m: string) => void logged.push(m), info: (m: string) => void logged.push(m), debug: () => undefined };

function gateway(proxy: McpProxyOptions) {
  @Injectable()
  class Own {
    @Tool()
    ping(): string {
      return 'pong';
    }
  }
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.proxy(proxy)], providers: [Own] })
  class Gateway {}
  return Gateway;
}

const call = (id: number, name: string) => JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });

/** A raw POST from `from` that may never be answered: its answer when it comes, and the request to drop it. */
function hold(url: string, from: string, body: string): { req: ClientRequest; answer: Promise<string> } {
  const target = new URL(url);
  let req!: ClientRequest;
  const answer = new Promise<string>((resolve) => {
    req = httpRequest({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers: JSON_AND_SSE, agent: false, localAddress: from }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve(`${res.statusCode} ${text}`));
      res.on('error', () => resolve('dropped'));
    });
    req.on('error', () => resolve('dropped'));
    req.end(body);
  });
  return { req, answer };
}

describe.each(['2025-11-25', '2026-07-28'] as const)('McpModule.proxy(): one caller cannot take every slot of a remote (issue 38, 12; remote on %s)', (protocol) => {
  let app: McpApplication;
  let url: string;
  const held: ClientRequest[] = [];
  beforeAll(async () => {
    app = await McpFactory.create(gateway({ namespace: 'bad', stdio: HOSTILE, protocol }));
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, stateless: true });
    url = String(await app.getUrl());
  });
  afterAll(async () => {
    for (const req of held.splice(0)) req.destroy();
    await app.close();
    logged.length = 0;
  });

  it('260 hanging calls from one address: past its 32 they fail at once naming maxCallsPerClient; another address is served', async () => {
    const calls = Array.from({ length: 260 }, (_, i) => hold(url, '127.0.0.2', call(i + 1, 'bad_hang')));
    held.push(...calls.map((c) => c.req));
    const answers: string[] = [];
    for (const c of calls) void c.answer.then((answer) => answers.push(answer));
    await waitFor(async () => (answers.length >= 228 ? true : undefined), { timeout: 15_000, what: 'the calls past the caller’s share to be refused' });
    expect(answers.length).toBe(228);
    for (const answer of answers) expect(answer).toMatch(/Too many of your calls of the remote MCP server 'bad'.*\(32, maxCallsPerClient\)/);
    const other = await rawRequest(url, { headers: JSON_AND_SSE, body: call(1, 'bad_ok'), localAddress: '127.0.0.3' });
    expect(text(messagesOf(other.body)[0]?.result)).toBe('ok');
  });
});

describe('McpModule.proxy(): a 9 MB answer over HTTP (issue 38, 12)', () => {
  const NINE = 9 * 1024 * 1024;
  let remote: Server;
  let url: string;
  let client: TestClient | undefined;
  const result = (id: unknown, value: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: value });
  beforeAll(async () => {
    // A raw JSON-RPC server (2025-11-25): answers a call of huge_sse with a 9 MB event, of huge_json with a 9 MB body.
    remote = createServer((req, res) => {
      if (req.method !== 'POST') return void res.writeHead(req.method === 'DELETE' ? 200 : 405).end();
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const message = JSON.parse(body) as { id?: number; method: string; params?: { name?: string } };
        if (message.id === undefined) return void res.writeHead(202).end();
        const json = (text: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(text);
        if (message.method === 'initialize') return json(result(message.id, { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'raw', version: '1.0.0' } }));
        if (message.method === 'tools/list') return json(result(message.id, { tools: ['huge_sse', 'huge_json', 'small'].map((name) => ({ name, inputSchema: { type: 'object' } })) }));
        if (message.method !== 'tools/call') return json(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } }));
        const answer = (text: string) => result(message.id, { content: [{ type: 'text', text }] });
        if (message.params?.name === 'huge_json') return json(answer('j'.repeat(NINE)));
        if (message.params?.name !== 'huge_sse') return json(answer('small'));
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const event = `event: message\ndata: ${answer('s'.repeat(NINE))}\n\n`;
        let at = 0;
        const pump = () => {
          while (at < event.length && !res.destroyed) {
            const piece = event.slice(at, (at += 64 * 1024));
            if (!res.write(piece)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      });
    });
    await new Promise<void>((resolve) => remote.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(remote.address() as AddressInfo).port}/mcp`;
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    logged.length = 0;
  });
  afterAll(() => new Promise<void>((resolve) => remote.close(() => resolve())));

  it.each(['huge_sse', 'huge_json'])('%s fails at once naming maxMessageBytes; the connection is kept and the next call served at once', async (tool) => {
    client = await createTestClient(gateway({ namespace: 'raw', url, protocol: '2025-11-25' }));
    const started = Date.now();
    const failed = await client.callTool({ name: `raw_${tool}`, arguments: {} }, { timeout: 30_000 }).then(
      (r) => ({ ok: r }),
      (error: Error) => ({ error: error.message }),
    );
    expect(failed).toEqual({ error: expect.stringMatching(/sent an answer larger than 8388608 bytes \(maxMessageBytes\)/) });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(text(await client.callTool({ name: 'raw_small', arguments: {} }))).toBe('small');
    expect(logged.filter((m) => /^Lost the/.test(m))).toEqual([]);
  });
});

describe('McpModule.proxy(): the bounds are checked where the module is declared', () => {
  it.each([
    ['maxCallsPerClient', 0, 'a count, e.g. maxCallsPerClient: 32'],
    ['maxCatalogueBytes', -1, 'bytes, e.g. maxCatalogueBytes: 8388608'],
    ['relistInterval', 0.5, 'milliseconds, e.g. relistInterval: 1000'],
  ])('%s: %p is refused, naming the fix', (key, value, fix) => {
    expect(() => McpModule.proxy({ namespace: 'x', url: 'http://127.0.0.1:1/mcp', [key]: value })).toThrow(
      `Cannot use McpModule.proxy({ namespace: 'x', … }): ${key} is ${value}, not a whole number above 0.\nFix: give ${fix}.`,
    );
  });
});
