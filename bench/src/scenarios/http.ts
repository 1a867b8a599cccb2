import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { Agent, request } from 'node:http';
import autocannon from 'autocannon';
import { benchFile, reflectVersions } from '../baseline';
import type { BenchSystem } from '../system';
import { alternate, alternateSamples, median, summarize } from '../stats';
import type { Settings } from './in-memory';
import { startRedisServer } from '../redis';

export const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

export interface Child {
  readonly url: string;
  readonly process: ChildProcessByStdio<Writable, Readable, null>;
  next(prefix: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startChild(system: string, mode: 'stateless' | 'stateful', env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--expose-gc', benchFile(system, 'servers/http.server.js'), system, mode], { stdio: ['pipe', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  let buffered = '';
  const waiters: { prefix: string; resolve: (line: string) => void }[] = [];
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      const index = waiters.findIndex((w) => line.startsWith(w.prefix));
      if (index >= 0) waiters.splice(index, 1)[0].resolve(line);
    }
  });
  const next = (prefix: string) =>
    new Promise<string>((resolve) => waiters.push({ prefix, resolve: (line) => resolve(line.slice(prefix.length)) }));
  const url = await next('URL=');
  return {
    url,
    process: child,
    next,
    stop: () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 3_000).unref();
      }),
  };
}

/** One server process per system, started together and kept for every repetition. */
async function startChildren(systems: readonly { name: string }[], mode: 'stateless' | 'stateful'): Promise<Map<string, Child>> {
  return new Map(await Promise.all(systems.map(async (s) => [s.name, await startChild(s.name, mode)] as const)));
}

/** mcp-reflect keeping no events for resumption (`eventStore: false`), beside the default, in (e). */
const NO_EVENTS = 'mcp-reflect (eventStore: false)';

/** mcp-reflect in Nest with its endpoint as a route of the application (`http.mount: 'route'`), beside the default. */
const NEST_ROUTE = 'mcp-reflect-nest (route)';

/**
 * (d) stateless HTTP: tools/call `add` per second at 32 connections (autocannon, loopback). With mcp-reflect in
 * Nest, its endpoint is measured both ahead of Express (the system's row) and as a route of the application.
 */
export async function httpThroughput(systems: readonly BenchSystem[], settings: Settings & { seconds: number; warmSeconds: number; httpRounds: number }) {
  // Many short runs: each server (and the load generator) speeds up over its first seconds under load, and
  // the machine's speed drifts; a median over many alternations absorbs both.
  const withHttp: { name: string }[] = systems.filter((s) => s.httpStateless);
  const children = await startChildren(withHttp, 'stateless');
  if (children.has('mcp-reflect-nest')) {
    children.set(NEST_ROUTE, await startChild('mcp-reflect-nest', 'stateless', { BENCH_NEST_MOUNT: 'route' }));
    withHttp.push({ name: NEST_ROUTE });
  }
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
  const load = (url: string) => ({ url, method: 'POST' as const, headers: HEADERS, body, connections: 32 });
  try {
    // JIT warm-up of every server, not counted.
    for (const child of children.values()) await autocannon({ ...load(child.url), duration: settings.warmSeconds });
    const samples = await alternateSamples(withHttp, settings.httpRounds, async (system) => {
      const result = await autocannon({ ...load(children.get(system.name)!.url), duration: settings.seconds });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${system.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result.requests.average;
    }); // plus one round not counted
    const cell = 'HTTP stateless tools/call, 32 connections (req/s)';
    const route = samples.get(NEST_ROUTE);
    samples.delete(NEST_ROUTE);
    const table = { [cell]: summarize(cell, samples) };
    if (!route) return table;
    // The two mounts of mcp-reflect in Nest, with the limit's samples of the same rounds for the ratios.
    const mounts = new Map([...(samples.has('limit') ? [['limit', samples.get('limit')!] as const] : []), ["mount: 'server' (the row above)", samples.get('mcp-reflect-nest')!] as const, ["mount: 'route'", route] as const]);
    const byMount = 'mcp-reflect-nest over HTTP by http.mount, stateless tools/call, 32 connections (req/s)';
    return { ...table, [byMount]: summarize(byMount, mounts) };
  } finally {
    await Promise.all([...children.values()].map((c) => c.stop()));
  }
}

/**
 * (e) memory per idle stateful HTTP session, over `sessions` sessions (KiB per session): resident memory (RSS,
 * what the operating system charges) and the V8 heap after a full GC (what the sessions themselves retain;
 * RSS also moves with heap reservations and allocator pages, so it is the noisier of the two). A fresh server
 * process per repetition, so every measurement starts from the same heap.
 */
export async function memoryPerSession(systems: readonly BenchSystem[], settings: { sessions: number; reps: number }) {
  // mcp-reflect also keeping no events for resumption (`eventStore: false`): what the kept events cost.
  const withSessions: { name: string; system: string; env?: Record<string, string> }[] = systems.filter((s) => s.httpStateful).map((s) => ({ name: s.name, system: s.name }));
  if (withSessions.some((s) => s.name === 'mcp-reflect')) withSessions.push({ name: NO_EVENTS, system: 'mcp-reflect', env: { BENCH_NO_EVENTS: '1' } });
  const heap = new Map<string, number[]>(withSessions.map((s) => [s.name, []]));
  const medians = await alternate(withSessions, settings.reps, async (system) => {
    const child = await startChild(system.system, 'stateful', system.env);
    try {
      await openSessions(child.url, 100); // the first sessions warm the code paths and grow the heap once
      const before = await memory(child);
      await openSessions(child.url, settings.sessions);
      const after = await memory(child);
      heap.get(system.name)!.push((after.heapUsed - before.heapUsed) / 1024 / settings.sessions);
      return (after.rss - before.rss) / 1024 / settings.sessions;
    } finally {
      await child.stop();
    }
  }, false);
  const heaps = new Map([...heap].map(([name, values]) => [name, median(values)]));
  const without = (values: Map<string, number>) => Object.fromEntries([...values].filter(([name]) => name !== NO_EVENTS));
  const events = heaps.has(NO_EVENTS)
    ? {
        [`mcp-reflect memory per idle stateful session by event store, ${settings.sessions} sessions (KiB, V8 heap)`]: {
          ...(heaps.has('limit') ? { limit: heaps.get('limit')! } : {}),
          'InMemoryEventStore (the default, the row above)': heaps.get('mcp-reflect')!,
          'eventStore: false (no resumption)': heaps.get(NO_EVENTS)!,
        },
      }
    : {};
  return {
    [`memory per idle stateful session, ${settings.sessions} sessions (KiB, RSS)`]: without(medians),
    [`memory per idle stateful session, ${settings.sessions} sessions (KiB, V8 heap)`]: without(heaps),
    ...events,
  };
}

async function openSessions(url: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 400) {
    await Promise.all(Array.from({ length: Math.min(400, count - i) }, () => openSession(url)));
  }
}

async function memory(child: Child): Promise<{ rss: number; heapUsed: number }> {
  const reply = child.next('MEM=');
  child.process.stdin.write('mem\n');
  return JSON.parse(await reply);
}

// Keep-alive, 400 at a time: opening a thousand sessions should cost the server sessions, not TCP handshakes.
const agent = new Agent({ keepAlive: true, maxSockets: 400 });

function post(url: string, headers: Record<string, string>, body: string): Promise<{ headers: Record<string, unknown> }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: target.hostname, port: target.port, path: target.pathname, method: 'POST', headers, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ headers: res.headers }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function openSession(url: string): Promise<string> {
  const init = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
  });
  const { headers } = await post(url, HEADERS, init);
  const session = headers['mcp-session-id'] as string;
  if (!session) throw new Error('no session id');
  await post(url, { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' }, JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return session;
}

/**
 * (i) stateful HTTP `tools/call` per second on one 2025-era session at 32 connections, mcp-reflect with its
 * SSE events in memory and in Redis (a redis-server on loopback; skipped when none is installed).
 */
export async function eventStores(
  systems: readonly BenchSystem[],
  settings: { seconds: number; warmSeconds: number; httpRounds: number },
): Promise<Record<string, Record<string, number>>> {
  const redis = await startRedisServer();
  if (!redis) {
    console.error('  (i) skipped: redis-server is not installed (apt-get install redis-server)');
    return {};
  }
  // mcp-reflect, and a baseline (`mcp-reflect@<rev>`) when one is measured: every variant of both alternating.
  const versions = reflectVersions(systems);
  const variants = versions.flatMap((system) =>
    [
      { label: 'in-memory event store', env: {} as Record<string, string> },
      { label: 'Redis event store', env: { BENCH_REDIS_URL: redis.url } },
    ].map((v) => ({ ...v, system, name: `${system} ${v.label}` })),
  );
  const children = new Map(await Promise.all(variants.map(async (v) => [v.name, await startChild(v.system, 'stateful', v.env)] as const)));
  try {
    const loads = new Map(
      await Promise.all(
        variants.map(async (v) => {
          const url = children.get(v.name)!.url;
          const session = await openSession(url);
          const headers = { ...HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
          const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });
          return [v.name, { url, method: 'POST' as const, headers, body, connections: 32 }] as const;
        }),
      ),
    );
    for (const load of loads.values()) await autocannon({ ...load, duration: settings.warmSeconds });
    const medians = await alternate(variants, settings.httpRounds, async (v) => {
      const result = await autocannon({ ...loads.get(v.name)!, duration: settings.seconds });
      if (result.non2xx > 0 || result.errors > 0) throw new Error(`${v.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      return result.requests.average;
    });
    return Object.fromEntries(
      versions.map((system) => [
        `${system} stateful HTTP tools/call, one session, 32 connections (req/s)`,
        Object.fromEntries(variants.filter((v) => v.system === system).map((v) => [v.label, medians.get(v.name)!])),
      ]),
    );
  } finally {
    await Promise.all([...children.values()].map((c) => c.stop()));
    await redis.stop();
  }
}
