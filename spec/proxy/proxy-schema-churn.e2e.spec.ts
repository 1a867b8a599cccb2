import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startServerProcess, type ServerProcess } from '../support/server-process';

/**
 * A remote that changes its tool schemas at every `list_changed` (issue 41, item 9: the compiled-validator cache was
 * keyed by schema text and never forgot one). The gateway (spec/fixtures/proxy/churning-gateway-app.ts) runs in a
 * process of its own with a 160 MB heap in front of spec/fixtures/proxy/catalogue-remote.cjs in its `schemas` mode:
 * 20 tools of 20 properties, named anew at each listing, listed again and again. The remote's validators are kept
 * apart from the application's and bounded (docs/reliability.md#proxy-a-hostile-remote-mcpmoduleproxy): the
 * heap stays flat, the application's own tool validates its arguments all along, and the remote's newest schemas
 * are the ones served and used.
 *
 * On the build before (c70d649), every schema compiled was kept (the validator under its text, ajv's copy of the
 * schema and its compiled code, the text again among the checked schemas and the shared ones): the heap grew by
 * about half a megabyte a listing.
 */
const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text;
const MB = 1024 * 1024;

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'other', version: '1.0.0' }, { capabilities: {}, versionNegotiation: { mode: 'legacy' } } as never);
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

describe('McpModule.proxy(): a remote that keeps changing its schemas cannot grow the gateway', () => {
  let server: ServerProcess | undefined;
  let client: Client | undefined;
  afterEach(async () => {
    await client?.close().catch(() => undefined);
    client = undefined;
    await server?.stop();
    server = undefined;
  });

  /** How many listings the remote has answered. */
  const listings = async () => Number(text(await client!.callTool({ name: 'sc_count', arguments: {} })));

  /** Makes the remote change its schemas until it has answered `target` listings, then waits until the gateway stops listing. */
  async function churnUntil(target: number): Promise<number> {
    while ((await listings()) < target) {
      expect(text(await client!.callTool({ name: 'sc_churn', arguments: { ms: 1_000 } }))).toBe('churning');
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    let last = -1;
    for (let now = await listings(); now !== last; now = await listings()) {
      last = now;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    return last;
  }

  it('keeps its heap flat over a hundred listings, and the application’s own tool validates all along', async () => {
    server = await startServerProcess('proxy/churning-gateway-app.ts', 160);
    client = await connect(server.url);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['add', 'sc_s0', 'sc_s19', 'sc_churn']));

    // Warm up: the remote's validators fill their bound (1 MiB of schema text, some 30 listings) at least once.
    const warm = await churnUntil(40);
    const before = (await server.memory()).heap;
    const after = await churnUntil(warm + 100);
    const grown = (await server.memory()).heap - before;
    // eslint-disable-next-line no-console
    console.log(`listings ${warm} → ${after}: heap ${(before / MB).toFixed(1)} MB → ${((before + grown) / MB).toFixed(1)} MB`);
    expect(server.alive()).toBe(true);
    // What the bound lets the remote's validators take (about 10 MB for 1 MiB of schema text) and no more; the build
    // before grew by some 50 MB here.
    expect(grown).toBeLessThan(16 * MB);

    // The application's own validator: untouched by the remote's churn.
    expect(text(await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } }))).toBe('5');
    const invalid = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toBe('Invalid arguments for tool add: a: must be a number');

    // The remote's tools are served with their newest schema, and validated with it.
    const s0 = (await client.listTools()).tools.find((t) => t.name === 'sc_s0')!;
    const fields = Object.keys(s0.inputSchema.properties ?? {});
    expect(fields).toHaveLength(20);
    const refused = await client.callTool({ name: 'sc_s0', arguments: { [fields[0]]: 'x'.repeat(101) } });
    expect(text(refused)).toBe(`Invalid arguments for tool sc_s0: ${fields[0]}: must be at most 100 characters long`);
  }, 180_000);
});
