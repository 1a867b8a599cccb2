import 'reflect-metadata';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpModule, Module, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * Issue 38, item 12: a hostile remote's catalogue. The gateway runs in a process of its own with a 160 MB heap
 * (spec/fixtures/proxy/gateway-app.ts) in front of spec/fixtures/proxy/catalogue-remote.cjs, and serves another
 * client all along.
 */

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text;

async function connect(url: string, onToolsChanged?: () => void): Promise<Client> {
  const client = new Client({ name: 'other', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } } as never);
  if (onToolsChanged) client.setNotificationHandler('notifications/tools/list_changed', onToolsChanged);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('McpModule.proxy(): a hostile catalogue cannot exhaust a 160 MB gateway (issue 38, 12)', () => {
  let server: ServerProcess | undefined;
  let client: Client | undefined;
  let dir: string;
  const logFile = () => path.join(dir, 'gateway.log');
  const logLines = () => readFileSync(logFile(), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line.slice(line.indexOf(' ') + 1)) as string);
  beforeEach(() => void (dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-gateway-'))));
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
    await server?.stop();
    server = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  it('bootstrap: pages of 7 MB with endless cursors are bounded (a 7 MB tool is left out, pages and bytes are capped, logged); the gateway serves what fit', async () => {
    server = await startServerProcess('proxy/gateway-app.ts', 160, { REMOTE_MODE: 'pages', LOG_FILE: logFile() });
    client = await connect(server.url);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ping', 'bad_ok', 'bad_good1']));
    expect(names.filter((name) => name.startsWith('bad_big'))).toEqual([]);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    expect(text(await client.callTool({ name: 'bad_ok', arguments: {} }))).toBe('ok');
    expect(server.alive()).toBe(true);
    const log = logLines();
    expect(log).toEqual(expect.arrayContaining([expect.stringMatching(/'big1'.*larger than 262144 bytes \(maxComponentBytes\)/)]));
    expect(log).toEqual(expect.arrayContaining([expect.stringMatching(/more than \d+ pages \(maxListPages\)|more than \d+ bytes \(maxCatalogueBytes\)/)]));
  });

  it("after the remote's list_changed: a flood of them and endless 7 MB pages make at most one listing and one list_changed per interval; other calls stay quick", async () => {
    server = await startServerProcess('proxy/gateway-app.ts', 160, { REMOTE_MODE: 'turn', PROXY_OPTIONS: JSON.stringify({ protocol: '2025-11-25' }), LOG_FILE: logFile() });
    let changed = 0;
    client = await connect(server.url, () => void changed++);
    expect(text(await client.callTool({ name: 'bad_turn', arguments: {} }))).toBe('turned');
    // The remote floods list_changed for 3 s (about 3,000) and lists 7 MB pages without end.
    let slowest = 0;
    const until = Date.now() + 5_000;
    while (Date.now() < until) {
      const started = Date.now();
      expect(text(await client.callTool({ name: 'ping', arguments: {} }, { timeout: 20_000 }))).toBe('pong');
      slowest = Math.max(slowest, Date.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(server.alive()).toBe(true);
    expect(slowest).toBeLessThan(2_500);
    // At most one list_changed per second (relistInterval) reached the client, not one per removed tool and listing.
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThanOrEqual(8);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ping', 'bad_ok']));
    expect(names.filter((name) => name.startsWith('bad_big'))).toEqual([]);
  });
});

describe("McpModule.proxy(): a flood of the remote's list_changed (issue 38, 12)", () => {
  const REMOTE = { command: process.execPath, args: [path.join(__dirname, '..', 'fixtures', 'proxy', 'catalogue-remote.cjs'), 'churn'] };
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('makes at most one listing and one list_changed to clients per relistInterval, not one per notification and removed tool', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: { error: () => undefined } as never }), McpModule.proxy({ namespace: 'bad', stdio: REMOTE, protocol: '2025-11-25' })] })
    class Gateway {}
    client = await createTestClient(Gateway);
    let changed = 0;
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed++);
    expect(text(await client.callTool({ name: 'bad_turn', arguments: {} }))).toBe('turned');
    const started = Date.now();
    // The remote floods list_changed for 3 s (about 3,000), each listing naming 50 new tools.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    const seconds = (Date.now() - started) / 1000;
    const listings = Number(text(await client.callTool({ name: 'bad_count', arguments: {} })));
    expect(listings).toBeGreaterThan(1);
    expect(listings).toBeLessThanOrEqual(Math.ceil(seconds) + 2);
    expect(changed).toBeGreaterThan(0);
    expect(changed).toBeLessThanOrEqual(Math.ceil(seconds) + 1);
  });
});

describe('McpModule.proxy(): one bad remote tool drops only that tool (issue 38, 12)', () => {
  const REMOTE = { command: process.execPath, args: [path.join(__dirname, '..', 'fixtures', 'proxy', 'catalogue-remote.cjs'), 'bad'] };
  const logged: string[] = [];
  const logger = { error: (m: string) => void logged.push(m), warn: (m: string) => void logged.push(m), info: (m: string) => void logged.push(m), debug: () => undefined };
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    logged.length = 0;
  });

  @Injectable()
  class Local {
    @Tool({ name: 'bad_local' })
    mine(): string {
      return 'mine';
    }
  }

  it('a NUL or an escape in a name, a $ref loop, a name listed twice, a clash with a local tool: each is left out and logged, escaped; the rest is served', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.proxy({ namespace: 'bad', stdio: REMOTE })], providers: [Local] })
    class Gateway {}
    client = await createTestClient(Gateway);
    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['bad_ok', 'bad_good', 'bad_twice', 'bad_local']));
    expect(names.some((name) => CONTROL.test(name))).toBe(false);
    expect(tools.find((t) => t.name === 'bad_twice')?.description).toBe('first');
    expect(text(await client.callTool({ name: 'bad_local', arguments: {} }))).toBe('mine');
    expect(text(await client.callTool({ name: 'bad_good', arguments: {} }))).toBe('ok');
    expect(logged.filter((m) => CONTROL.test(m))).toEqual([]);
    expect(logged).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/'nul\\u0000name'.*left out/),
        expect.stringMatching(/'\\u001b\[31mred'.*left out/),
        expect.stringMatching(/'twice'.*more than once.*left out/),
        expect.stringMatching(/'local'.*left out/),
      ]),
    );
    if (!names.includes('bad_loop')) expect(logged).toEqual(expect.arrayContaining([expect.stringMatching(/'loop'.*left out/)]));
    // A schema that is no JSON Schema is the remote's, not a decorator's: the message names the remote, the tool and the cause.
    expect(names).not.toContain('bad_invalid');
    const invalid = logged.find((m) => m.includes("'invalid'"));
    expect(invalid).toMatch(/Cannot build tool 'bad_invalid' \(McpProxy\(bad\)\.tool:invalid\) of the remote MCP server 'bad' \(.*catalogue-remote\.cjs bad\): the input schema it lists cannot be compiled: schema is invalid: .*properties\/a\/type/);
    expect(invalid).not.toMatch(/decorator/);
    // A pattern that backtracks catastrophically is dropped (and said so); the tool and its safe patterns stay.
    expect(tools.find((t) => t.name === 'bad_evil')?.inputSchema).toEqual({ type: 'object', properties: { text: { type: 'string' }, code: { type: 'string', pattern: '^[a-z]{3}$' } } });
    expect(logged).toEqual(expect.arrayContaining([expect.stringMatching(/tool 'evil' has patterns that could take exponential time: #\/properties\/text\/pattern: \^\(a\+\)\+\$/)]));
    const started = Date.now();
    expect((await client.callTool({ name: 'bad_evil', arguments: { text: `${'a'.repeat(40)}!` } })).isError).not.toBe(true);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});
