import autocannon from 'autocannon';
import { reflectVersions } from '../baseline';
import type { BenchSystem } from '../system';
import { startIssuer } from '../issuer';
import { summarize } from '../stats';
import type { Settings } from './in-memory';
import { HEADERS, startChild, type Child } from './http';

const NO_AUTH = 'without auth';
const AUTH = 'with bearer auth';
const BODY = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } });

interface Variant {
  /** `${system} ${label}`. */
  readonly name: string;
  readonly system: string;
  readonly label: typeof NO_AUTH | typeof AUTH;
  readonly env: Record<string, string>;
}

/**
 * (j) What OAuth resource-server authorization costs a stateless HTTP server: mcp-reflect's `tools/call add`
 * per second at 32 connections (autocannon, loopback, as in (d)) with `auth: { issuer, jwksUri }` against the
 * same server without auth, and the server's CPU time per request. Every request of both sides carries the
 * same kind of `Authorization: Bearer` header (an ES256 JWT for that server's URL, signed by an issuer in this
 * process, see issuer.ts); the server without auth ignores it. One token per server, as a busy client sends:
 * the server verifies it once and keeps the result. Both servers run in processes of their own, started
 * fresh in `groups` successive pairs (a server's speed moves from one process to the next), alternating in
 * `authRounds` rounds within each pair after a warm-up and one uncounted round; the ratio is the median of
 * round-by-round ratios against the server without auth. A baseline (`mcp-reflect@<rev>`) among the systems
 * gets its own pair, alternating with mcp-reflect's, and its ratios against its own server without auth.
 */
export async function httpBearerAuth(
  systems: readonly BenchSystem[],
  settings: Settings & { seconds: number; warmSeconds: number; authRounds: number },
): Promise<Record<string, Record<string, number>>> {
  if (!systems.some((s) => s.name === 'mcp-reflect')) return {};
  const versions = reflectVersions(systems);
  const issuer = await startIssuer();
  const variants = versions.flatMap((system): Variant[] => [
    { name: `${system} ${NO_AUTH}`, system, label: NO_AUTH, env: {} },
    { name: `${system} ${AUTH}`, system, label: AUTH, env: { BENCH_AUTH_ISSUER: issuer.issuer, BENCH_AUTH_JWKS: issuer.jwksUri } },
  ]);
  const rate = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  const cpu = new Map<string, number[]>(variants.map((v) => [v.name, []]));
  try {
    for (let group = 0; group < settings.groups; group++) {
      const children = new Map(await Promise.all(variants.map(async (v) => [v.name, await startChild(v.system, 'stateless', v.env)] as const)));
      try {
        const loads = new Map(
          await Promise.all(
            variants.map(async (v) => {
              const url = children.get(v.name)!.url;
              const token = await issuer.sign(url); // aud: this server's URL (its default `auth.resource`)
              await check(url, token, v.label === AUTH);
              const headers = { ...HEADERS, authorization: `Bearer ${token}` };
              return [v.name, { url, method: 'POST' as const, headers, body: BODY, connections: 32 }] as const;
            }),
          ),
        );
        // JIT warm-up of every server, then one round, not counted.
        for (const v of variants) await autocannon({ ...loads.get(v.name)!, duration: settings.warmSeconds });
        const measure = async (v: Variant, counted: boolean) => {
          const child = children.get(v.name)!;
          (globalThis as { gc?: () => void }).gc?.();
          const before = await cpuOf(child);
          const result = await autocannon({ ...loads.get(v.name)!, duration: settings.seconds });
          const used = (await cpuOf(child)) - before;
          if (result.non2xx > 0 || result.errors > 0) throw new Error(`${v.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
          if (!counted) return;
          rate.get(v.name)!.push(result.requests.average);
          cpu.get(v.name)!.push(used / result.requests.total);
        };
        for (const v of variants) await measure(v, false);
        for (let round = 0; round < settings.authRounds; round++) {
          for (const v of round % 2 === 0 ? variants : [...variants].reverse()) await measure(v, true);
        }
      } finally {
        await Promise.all([...children.values()].map((c) => c.stop()));
      }
    }
    // One key fetch per server process: every request after the first was admitted from the verified-token cache.
    console.error(`  (j) JWKS fetched ${issuer.jwksFetches} times by ${settings.groups * versions.length} authorizing server process(es)`);
    const tables: Record<string, Record<string, number>> = {};
    for (const system of versions) {
      // Per system, its two variants under their labels, against its own server without auth.
      const own = (samples: Map<string, number[]>) =>
        new Map(variants.filter((v) => v.system === system).map((v) => [v.label, samples.get(v.name)!] as const));
      const throughput = `stateless HTTP tools/call with bearer auth, ${system}, 32 connections (req/s)`;
      const cpuTime = `stateless HTTP tools/call with bearer auth, ${system}, server CPU µs per request`;
      tables[throughput] = summarize(throughput, own(rate), NO_AUTH);
      tables[cpuTime] = summarize(cpuTime, own(cpu), NO_AUTH);
    }
    return tables;
  } finally {
    await issuer.stop();
  }
}

/** The server answers `add` with the token; the authorizing one refuses a request without it (401). */
async function check(url: string, token: string, authorizing: boolean): Promise<void> {
  const call = (headers: Record<string, string>) => fetch(url, { method: 'POST', headers: { ...HEADERS, ...headers }, body: BODY });
  const answer = await call({ authorization: `Bearer ${token}` });
  const text = await answer.text();
  if (answer.status !== 200 || !text.includes('"text":"5"')) throw new Error(`bearer auth: ${url} answered ${answer.status}: ${text.slice(0, 200)}`);
  if (!authorizing) return;
  const refused = await call({});
  await refused.text();
  if (refused.status !== 401 || !refused.headers.get('www-authenticate')?.startsWith('Bearer ')) {
    throw new Error(`bearer auth: ${url} answered ${refused.status} to a request without a token, not 401 with a Bearer challenge`);
  }
}

/** The server process's CPU time so far (µs, every thread). */
async function cpuOf(child: Child): Promise<number> {
  const reply = child.next('CPU=');
  child.process.stdin.write('cpu\n');
  return Number(await reply);
}
