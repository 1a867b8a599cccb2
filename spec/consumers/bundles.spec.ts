import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { basePackages, childEnv, docFiles, makeProject, pack, pinned, root, runAsync, start, stop } from './consumer';

/**
 * The consumer matrix, bundles: a fresh CommonJS project (docs/setup.md) from the packed tarball, whose tool has
 * parameters named as top-level bindings of modules a bundle takes in (`url`, `date`, `country`: esbuild renames
 * them `url2`, `date4`, `country2`), with the types of `mcp-reflect generate` and the validators of
 * `mcp-reflect validators`, bundled with docs/runtimes.md's exact commands — esbuild with no `--external`, wrangler —
 * and run on Node (over stdio, launched from another folder, as a host does), Bun, Deno and workerd; beside it a
 * tool whose parameters are a zod schema (a Standard Schema source, issue 42).
 */
const tools = path.join(root, 'tools');
const bin = (tool: string, name: string) => path.join(tools, tool, 'node_modules', '.bin', name);
const node22 = path.join(tools, 'node22', 'node_modules', '.bin');

const sources: Record<string, string> = {
  // A dependency (an ES module, as most are now) whose top-level bindings are named as the tool's parameters: esbuild
  // hoists it into the bundle's one scope and renames the parameters (url → url2 …).
  'vendor/places/package.json': `${JSON.stringify({ name: 'places', version: '1.0.0', type: 'module', exports: { '.': { types: './index.d.ts', default: './index.js' } } }, null, 2)}\n`,
  'vendor/places/index.js': `export const url = 'https://places.example';
export const date = '2026-01-01';
export const country = 'FR';
export const source = () => \`\${url} (\${country}, \${date})\`;
`,
  'vendor/places/index.d.ts': `export declare const url: string;
export declare const date: string;
export declare const country: string;
export declare function source(): string;
`,
  'src/lookup.tools.ts': `import { Injectable, Param, Tool } from 'mcp-reflect';
import { source } from 'places';

@Injectable()
export class LookupTools {
  @Tool({ description: 'Where a page was seen' })
  lookup(@Param() url: string, @Param() date: string, @Param() country: string, @Param({ optional: true }) times = 1): string {
    return \`\${url} seen in \${country} on \${date}, \${times}× (\${source()})\`;
  }
}
`,
  // A Standard Schema source (docs/tools.md): zod's schema is the advertised one, zod validates and applies defaults.
  'src/forecast.tools.ts': `import { Injectable, Tool } from 'mcp-reflect';
import { z } from 'zod';

const Forecast = z.object({ city: z.string().min(1), days: z.number().int().min(1).default(1) });

@Injectable()
export class ForecastTools {
  @Tool({ description: 'The forecast of a city', parameters: Forecast })
  forecast({ city, days }: z.output<typeof Forecast>): string {
    return \`\${city}: sun for \${days} day(s)\`;
  }
}
`,
  'src/app.module.ts': `import { McpModule, Module } from 'mcp-reflect';
import { ForecastTools } from './forecast.tools.js';
import { LookupTools } from './lookup.tools.js';

@Module({ imports: [McpModule.forRoot({ name: 'lookup', version: '1.0.0' })], providers: [LookupTools, ForecastTools] })
export class AppModule {}
`,
  'src/app.ts': `import 'reflect-metadata';
import { McpFactory, type FetchHandlerOptions } from 'mcp-reflect';
import { AppModule } from './app.module.js';
import { metadata } from './mcp-metadata.js';
import { validators } from './mcp-validators.js';

export const createApp = () => McpFactory.create(AppModule, { metadata, validators });
export const createHandler = async (options: FetchHandlerOptions = {}) => (await createApp()).createFetchHandler({ path: '/mcp', ...options });
`,
  'src/node.ts': `import { createApp } from './app.js';

void createApp().then((app) => app.listen({ transport: 'stdio' }));
`,
  'src/bun.ts': `import { createHandler } from './app.js';

declare const Bun: { serve(options: { hostname: string; port: number; fetch(request: Request, server: { requestIP(request: Request): { address: string } | null }): Promise<Response> }): { port: number } };

void createHandler().then((handler) => {
  const server = Bun.serve({ hostname: '127.0.0.1', port: Number(process.env.PORT ?? 3000), fetch: (request, server) => handler(request, { remoteAddress: server.requestIP(request)?.address }) });
  console.error(\`LISTENING \${server.port}\`);
});
`,
  'src/deno.ts': `import { createHandler } from './app.js';

declare const Deno: {
  env: { get(name: string): string | undefined };
  serve(options: { hostname: string; port: number; onListen(address: { port: number }): void }, handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Promise<Response>): unknown;
};

void createHandler().then((handler) =>
  Deno.serve({ hostname: '127.0.0.1', port: Number(Deno.env.get('PORT') ?? 3000), onListen: ({ port }) => console.error(\`LISTENING \${port}\`) }, (request, info) => handler(request, { remoteAddress: info.remoteAddr.hostname })),
);
`,
  'src/worker.ts': `import type { FetchHandler } from 'mcp-reflect';
import { createHandler } from './app.js';

let handler: Promise<FetchHandler> | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    handler ??= createHandler({ stateless: true });
    return (await handler)(request, { remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined });
  },
};
`,
  'wrangler.toml': `name = "lookup"
main = "src/worker.ts"
compatibility_date = "2026-11-17"
compatibility_flags = ["nodejs_compat"]
`,
};

async function probe(client: Client): Promise<void> {
  const { tools: listed } = await client.listTools();
  expect(listed.find((tool) => tool.name === 'lookup')?.inputSchema).toMatchObject({
    properties: { url: { type: 'string' }, date: { type: 'string' }, country: { type: 'string' }, times: { type: 'number', default: 1 } },
    required: ['url', 'date', 'country'],
  });
  const called = await client.callTool({ name: 'lookup', arguments: { url: 'https://example.com', date: '2026-12-06', country: 'FR' } });
  expect(called.content).toEqual([{ type: 'text', text: 'https://example.com seen in FR on 2026-12-06, 1× (https://places.example (FR, 2026-01-01))' }]);
  const refused = await client.callTool({ name: 'lookup', arguments: { url: 'https://example.com', date: { day: 6 }, country: 'FR' } });
  expect(refused).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('date: must be a string') }] });
  // The zod tool: its schema advertised (the default shown), the call validated by zod and its default applied.
  expect(listed.find((tool) => tool.name === 'forecast')?.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, days: { default: 1 } }, required: ['city'] });
  expect((await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } })).content).toEqual([{ type: 'text', text: 'Oslo: sun for 1 day(s)' }]);
  expect(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 0 } })).toMatchObject({ isError: true, content: [{ text: expect.stringMatching(/^Invalid arguments for tool forecast: days: /) }] });
}

async function probeHttp(url: string): Promise<void> {
  for (const era of ['2025-11-25', '2026-07-28'] as const) {
    const client = new Client({ name: 'consumer-bundles', version: '1.0.0' }, era === '2026-07-28' ? { versionNegotiation: { mode: { pin: era } } } : {});
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await probe(client);
    } finally {
      await client.close();
    }
  }
}

describe('consumer matrix: bundles of a project made from the tarball (docs/runtimes.md)', () => {
  let dir: string;
  let app: string;
  let made: Promise<void>;
  let child: ChildProcess | undefined;
  const esbuild = () => path.join(app, 'node_modules', '.bin', 'esbuild');
  /** docs/runtimes.md's command, with nothing added: `npx esbuild <entry> --bundle --platform=node --format=cjs --outfile=<out>`. */
  const bundles = new Map<string, Promise<string>>();
  const bundle = (entry: string): Promise<string> => {
    let made = bundles.get(entry);
    if (!made) {
      const out = path.join(app, `${path.basename(entry, '.ts')}.cjs`);
      made = runAsync(esbuild(), [entry, '--bundle', '--platform=node', '--format=cjs', `--outfile=${out}`, '--log-level=error'], app).then(() => out);
      bundles.set(entry, made);
    }
    return made;
  };

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-consumer-bundles-'));
    app = path.join(dir, 'lookup');
    made = (async () => {
      const tarball = await pack(dir);
      const { 'package.json': manifest, 'tsconfig.json': tsconfig } = docFiles('setup.md', 'CommonJS');
      await makeProject(app, tarball, { 'package.json': manifest!, 'tsconfig.json': tsconfig!, ...sources }, [...basePackages, pinned('@swc/core'), pinned('esbuild'), pinned('zod'), './vendor/places']);
      // docs/runtimes.md's commands: the types, then the validators.
      const cli = path.join(app, 'node_modules', '.bin', 'mcp-reflect');
      await runAsync(cli, ['generate', '--quiet'], app);
      await runAsync(cli, ['validators', 'src/app.module.ts', '--out', 'src/mcp-validators.js', '--quiet'], app);
    })();
    made.catch(() => undefined);
  }, 300_000);
  afterEach(() => stop(child));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('bundles with esbuild and no --external: the optional peers the project does not use are not reached', async () => {
    await made;
    const out = await bundle('src/node.ts');
    // The renamed parameters are in the bundle: what the bootstrap matches the generated types against.
    expect(readFileSync(out, 'utf8')).toMatch(/lookup\(url\d+, date\d+, country\d+, times = 1\)/);
  }, 300_000);

  it('runs on Node over stdio, launched from another folder as a host launches it', async () => {
    await made;
    const out = await bundle('src/node.ts');
    const transport = new StdioClientTransport({ command: process.execPath, args: [out], cwd: tmpdir(), stderr: 'pipe', env: childEnv });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => void stderr.push(chunk.toString()));
    const client = new Client({ name: 'consumer-bundles', version: '1.0.0' });
    try {
      await client.connect(transport);
      await probe(client);
    } catch (error) {
      throw new Error(`${(error as Error).message}\nstderr: ${stderr.join('')}`);
    } finally {
      await client.close();
    }
  }, 300_000);

  it('runs on Bun (Bun.serve)', async () => {
    await made;
    const server = await start(bin('bun', 'bun'), [await bundle('src/bun.ts')], app, /LISTENING (\d+)/, { ...childEnv, PORT: '0' });
    child = server.child;
    await probeHttp(`http://127.0.0.1:${server.match[1]}/mcp`);
  }, 300_000);

  it('runs on Deno (Deno.serve)', async () => {
    await made;
    const file = await bundle('src/deno.ts');
    const server = await start(bin('deno', 'deno'), ['run', '--allow-net', '--allow-env', '--allow-read', '--allow-sys', file], app, /LISTENING (\d+)/, { ...childEnv, PORT: '0', NO_COLOR: '1' });
    child = server.child;
    await probeHttp(`http://127.0.0.1:${server.match[1]}/mcp`);
  }, 300_000);

  it('runs on Cloudflare workerd (wrangler dev, stateless)', async () => {
    await made;
    const env = { ...childEnv, PATH: `${node22}${path.delimiter}${childEnv.PATH}`, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: dir };
    const args = ['dev', '--ip', '127.0.0.1', '--port', '0', '--persist-to', path.join(dir, 'state')];
    const server = await start(bin('workerd', 'wrangler'), args, app, /Ready on http:\/\/127\.0\.0\.1:(\d+)/, env);
    child = server.child;
    await probeHttp(`http://127.0.0.1:${server.match[1]}/mcp`);
  }, 300_000);

  it('runs on the workerd of the wrangler npm installs on Node 20 (docs/runtimes.md: 4.86, compatibility date 2026-05-03)', async () => {
    await made;
    const env = { ...childEnv, PATH: `${path.dirname(process.execPath)}${path.delimiter}${childEnv.PATH}`, WRANGLER_SEND_METRICS: 'false', CI: '1', NO_COLOR: '1', WRANGLER_LOG_PATH: dir };
    const args = ['dev', '--ip', '127.0.0.1', '--port', '0', '--persist-to', path.join(dir, 'state20'), '--compatibility-date', '2026-05-03'];
    const server = await start(bin('wrangler-node20', 'wrangler'), args, app, /Ready on http:\/\/127\.0\.0\.1:(\d+)/, env);
    child = server.child;
    await probeHttp(`http://127.0.0.1:${server.match[1]}/mcp`);
  }, 300_000);
});
