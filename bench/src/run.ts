import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrapTimes, requestScope } from './scenarios/bootstrap';
import { coldStart } from './scenarios/cold-start';
import { cpuChecks } from './scenarios/cpu';
import { eventStores, httpThroughput, memoryPerSession } from './scenarios/http';
import { httpBearerAuth } from './scenarios/http-auth';
import { inMemoryCalls } from './scenarios/in-memory';
import { toolsList } from './scenarios/list';
import { PAIRED_RATIOS } from './stats';
import { loadSystems } from './systems';

type Table = Record<string, Record<string, number>>;

/** Which way is better, per metric: throughput up, time and memory down. */
const LOWER_IS_BETTER = /\((ms|KiB)[,)]|µs per (call|request)/;

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const settings = quick
    ? { reps: 1, groups: 1, rounds: 1, calls: 200, maxMs: 100, seconds: 0.5, warmSeconds: 0.25, sessions: 20, memoryReps: 1, httpRounds: 1, authRounds: 1 }
    : { reps: 5, groups: 3, rounds: 3, calls: 5_000, maxMs: 120, seconds: 0.5, warmSeconds: 0.5, sessions: 1_000, memoryReps: 2, httpRounds: 7, authRounds: 5 };
  // `--systems=limit,mcp-reflect` measures only those (more alternations of the pair in the same time).
  const chosen = process.argv.find((arg) => arg.startsWith('--systems='))?.slice('--systems='.length).split(',');
  const systems = loadSystems().filter((s) => !chosen || chosen.includes(s.name));
  if (chosen && systems.length !== chosen.length) throw new Error(`--systems: choose from ${loadSystems().map((s) => s.name).join(', ')}`);
  const started = Date.now();
  const step = async (name: string, run: () => Promise<Table>): Promise<Table> => {
    const t = Date.now();
    const table = await run();
    console.error(`  ${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return table;
  };
  console.error(`Benchmarking ${systems.map((s) => s.name).join(', ')}${quick ? ' (quick)' : ''}`);
  // `--only=b,a` runs the named scenarios, in that order (for investigating one scenario or an order effect).
  const scenarios: Record<string, [string, () => Promise<Table>]> = {
    a: ['(a) in-memory tools/call', () => inMemoryCalls(systems, settings)],
    b: ['(b) tools/list', () => toolsList(systems, settings)],
    c: ['(c) stdio cold start', () => coldStart(systems, settings)],
    d: ['(d) HTTP stateless', () => httpThroughput(systems, settings)],
    e: ['(e) memory per session', () => memoryPerSession(systems, { ...settings, reps: settings.memoryReps })],
    f: ['(f) bootstrap', () => bootstrapTimes(systems, settings)],
    g: ['(f) add variants (request scope, enhancers)', () => requestScope(settings)],
    h: ['(h) CPU time checks', () => cpuChecks(systems, { reps: quick ? 1 : 3, quick })],
    i: ['(i) stateful HTTP, event stores', () => eventStores(settings)],
    j: ['(j) stateless HTTP with bearer auth', () => httpBearerAuth(systems, settings)],
  };
  const defaults = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'j']; // h only when asked for (two minutes a pair)
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
  const unknown = only?.filter((key) => !(key in scenarios)) ?? [];
  if (unknown.length) throw new Error(`--only: unknown scenario ${unknown.join(', ')} (choose from ${Object.keys(scenarios).join(', ')}; g = add variants, h = CPU time checks, i = event stores, j = bearer auth)`);
  const tables: Table = {};
  for (const key of only ?? defaults) {
    const [name, run] = scenarios[key];
    Object.assign(tables, await step(name, run));
  }
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
  const ratios = Object.fromEntries(PAIRED_RATIOS);
  const result = { date: new Date().toISOString(), quick, machine, settings, systems: systems.map((s) => s.name), results: tables, pairedRatios: ratios };
  const root = path.resolve(__dirname, '..');
  mkdirSync(path.join(root, 'results'), { recursive: true });
  const partial = only !== undefined || chosen !== undefined;
  writeFileSync(path.join(root, 'results', partial ? 'bench.partial.json' : quick ? 'bench.quick.json' : 'bench.json'), JSON.stringify(result, null, 2) + '\n');
  const markdown = render(tables, systems.map((s) => s.name), machine, settings);
  console.log(markdown);
  if (!quick && !partial) writeResults(path.resolve(root, '..', 'docs', 'performance.md'), markdown);
  console.error(`done in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function render(tables: Table, systems: string[], machine: string, settings: object): string {
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${machine}; settings ${JSON.stringify(settings)}.`,
    '',
    `| scenario | ${systems.join(' | ')} |`,
    `| --- | ${systems.map(() => '---').join(' | ')} |`,
  ];
  const extra: string[] = [];
  for (const [scenario, values] of Object.entries(tables)) {
    if (!Object.keys(values).every((name) => systems.includes(name))) {
      // A table of its own (mcp-reflect variants), with ratios when the limit was measured alongside, or
      // paired ratios against the table's own reference (the bearer-auth row: against the server without auth).
      const reference = values.limit;
      const paired = PAIRED_RATIOS.get(scenario);
      const cell = ([name, value]: [string, number]) =>
        `${format(value)}${paired?.[name] !== undefined ? ` (${paired[name].toFixed(2)}×)` : reference ? ` (${(value / reference).toFixed(2)}×)` : ''}`;
      extra.push('', `| ${scenario} | ${Object.keys(values).join(' | ')} |`, `| --- | ${Object.keys(values).map(() => '---').join(' | ')} |`);
      extra.push(`| ${LOWER_IS_BETTER.test(scenario) ? '↓' : '↑'} | ${Object.entries(values).map(cell).join(' | ')} |`);
      continue;
    }
    const limit = values.limit;
    const paired = PAIRED_RATIOS.get(scenario);
    const lower = LOWER_IS_BETTER.test(scenario);
    const cells = systems.map((name) => {
      const value = values[name];
      if (value === undefined) return 'n/a';
      const ratio = paired?.[name] !== undefined ? ` (${paired[name].toFixed(2)}×)` : limit ? ` (${(value / limit).toFixed(2)}×)` : '';
      return `${format(value)}${ratio}`;
    });
    lines.push(`| ${scenario} ${lower ? '↓' : '↑'} | ${cells.join(' | ')} |`);
  }
  lines.push(
    '',
    '↑ higher is better, ↓ lower is better; ratios are against the limit (raw SDK v2 low-level Server + ajv):',
    'for the in-memory, list and HTTP rows the median of round-by-round ratios (see "How it is measured"),',
    "otherwise the value over the limit's value.",
  );
  lines.push(...extra);
  return lines.join('\n') + '\n';
}

/** Replaces the generated part of docs/performance.md (between the results markers), keeping the prose. */
function writeResults(file: string, markdown: string): void {
  const start = '<!-- results:start -->';
  const end = '<!-- results:end -->';
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `${start}\n${end}\n`;
  const before = current.includes(start) ? current.slice(0, current.indexOf(start)) : `${current}\n`;
  const after = current.includes(end) ? current.slice(current.indexOf(end) + end.length) : '\n';
  writeFileSync(file, `${before}${start}\n${markdown}${end}${after}`);
}

function format(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
