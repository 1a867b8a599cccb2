import 'reflect-metadata';
import type { Client } from '@modelcontextprotocol/client';
import { McpFactory, McpModule, Module, type McpApplication } from 'mcp-reflect';
import path from 'node:path';
import { clientSdk } from './lazy';
import { rawLister } from './raw-list';
import { ADD_ARGS, type ClientEnd } from './system';
import { extraTools } from './systems/mcp-reflect-extra';
import { reflectModule } from './systems/mcp-reflect';

/**
 * The composition rows (m), measured in this process (forked once per group by scenarios/composition.ts):
 * `add` called directly and through `McpModule.proxy()` — the remote in the same process over an in-memory
 * pair, and the remote as a child process over stdio — and tools/list of 500 tools served by one module
 * against 500 namespaced tools of five `forFeature({ namespace })` modules. Every variant lives for the whole
 * process and is measured in alternation, `rounds` times.
 */
export interface CompositionJob {
  readonly rounds: number;
  readonly calls: number;
  readonly maxMs: number;
}

/** µs per call for the call variants, lists per second for the list variants: samples per variant. */
export type CompositionSamples = Record<string, number[]>;

const STDIO_SERVER = path.join(__dirname, 'servers', 'mcp-reflect.server.js');

interface Variant {
  readonly name: string;
  measure(job: CompositionJob): Promise<number>;
  close(): Promise<void>;
}

async function connected(app: McpApplication): Promise<{ client: Client; end: ClientEnd; close: () => Promise<void> }> {
  const { Client, InMemoryTransport } = clientSdk();
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await app.connect(serverEnd);
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(clientEnd);
  return { client, end: clientEnd, close: async () => (await client.close(), await app.close()) };
}

function gatewayModule(proxy: Parameters<typeof McpModule.proxy>[0]): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.proxy(proxy)] })
  class Gateway {}
  return Gateway;
}

/** µs per sequential call of `tool`, over `calls` calls or `maxMs`, whichever ends first. */
async function perCall(client: Client, tool: string, job: CompositionJob): Promise<number> {
  const request = { method: 'tools/call' as const, params: { name: tool, arguments: ADD_ARGS } };
  const started = performance.now();
  let done = 0;
  while (done < job.calls && performance.now() - started < job.maxMs) {
    await client.request(request);
    done++;
  }
  return ((performance.now() - started) * 1000) / done;
}

async function callVariant(name: string, make: () => Promise<{ client: Client; close: () => Promise<void> }>, tool: string): Promise<Variant> {
  const { client, close } = await make();
  const text = ((await client.callTool({ name: tool, arguments: ADD_ARGS })).content as { text: string }[])[0]?.text;
  if (text !== '5') throw new Error(`${name}: ${tool} answered ${JSON.stringify(text)}, not "5"`);
  return { name, measure: (job) => perCall(client, tool, job), close };
}

async function listVariant(name: string, module: Function): Promise<Variant> {
  const { end, close } = await connected(await McpFactory.create(module));
  const list = rawLister(end);
  const count = (JSON.parse(await list()) as { result?: { tools?: unknown[] } }).result?.tools?.length;
  if (count !== 500) throw new Error(`${name} lists ${count} tools, not 500`);
  return {
    name,
    async measure(job) {
      const started = performance.now();
      let done = 0;
      while (done < job.calls && performance.now() - started < job.maxMs) {
        await list();
        done++;
      }
      return done / ((performance.now() - started) / 1000);
    },
    close,
  };
}

/** Five feature modules, each `forFeature({ namespace: 'm<i>' })` with 100 trivial tools: 500 tools. */
function fiveNamespaces(): Function {
  const features = Array.from({ length: 5 }, (_, i) => {
    @Module({ imports: [McpModule.forFeature({ namespace: `m${i}` })], providers: [extraTools(100)] as never })
    class Feature {}
    Object.defineProperty(Feature, 'name', { value: `Feature${i}` });
    return Feature;
  });
  @Module({ imports: [McpModule.forRoot({ name: 'namespaced', version: '1.0.0' }), ...features] })
  class Namespaced {}
  return Namespaced;
}

function oneModule(): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'one', version: '1.0.0' })], providers: [extraTools(500)] as never })
  class One {}
  return One;
}

async function run(job: CompositionJob): Promise<CompositionSamples> {
  const { StdioClientTransport } = require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
  const { Client, InMemoryTransport } = clientSdk();
  const stdio = { command: process.execPath, args: [STDIO_SERVER, '0'] };
  const remote = await McpFactory.create(reflectModule(0));
  const variants: Variant[] = [
    await callVariant('direct, in memory', async () => connected(await McpFactory.create(reflectModule(0))), 'add'),
    await callVariant(
      'through a proxy, in memory',
      async () =>
        connected(
          await McpFactory.create(
            gatewayModule({
              namespace: 'r',
              transport: async () => {
                const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
                await remote.connect(serverEnd);
                return clientEnd;
              },
            }),
          ),
        ),
      'r_add',
    ),
    await callVariant(
      'direct, stdio',
      async () => {
        const client = new Client({ name: 'bench', version: '1.0.0' });
        await client.connect(new StdioClientTransport({ ...stdio, stderr: 'ignore' }));
        return { client, close: () => client.close() };
      },
      'add',
    ),
    await callVariant('through a proxy, stdio', async () => connected(await McpFactory.create(gatewayModule({ namespace: 'r', stdio }))), 'r_add'),
    await listVariant('tools/list, 500 tools of one module', oneModule()),
    await listVariant('tools/list, 500 namespaced tools of five modules', fiveNamespaces()),
  ];
  const samples: CompositionSamples = Object.fromEntries(variants.map((v) => [v.name, [] as number[]]));
  try {
    for (const variant of variants) await variant.measure(job); // warm-up, not counted
    for (let round = 0; round < job.rounds; round++) {
      const order = round % 2 === 0 ? variants : [...variants].reverse();
      for (const variant of order) {
        (globalThis as { gc?: () => void }).gc?.();
        samples[variant.name].push(await variant.measure(job));
      }
    }
  } finally {
    for (const variant of variants) await variant.close();
    await remote.close();
  }
  return samples;
}

process.once('message', (job: CompositionJob) => {
  run(job).then(
    (samples) => process.send!({ samples }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: error instanceof Error ? error.stack : String(error) }, () => process.exit(1)),
  );
});
process.send!({ ready: true });
