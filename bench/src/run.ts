import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrapTimes, requestScope } from './scenarios/bootstrap';
import { coldStart } from './scenarios/cold-start';
import { composition } from './scenarios/composition';
import { durable } from './scenarios/durable';
import { cpuChecks } from './scenarios/cpu';
import { workersEdge } from './scenarios/edge';
import { eventStores, httpThroughput, memoryPerSession } from './scenarios/http';
import { httpBearerAuth } from './scenarios/http-auth';
import { importCost } from './scenarios/imports';
import { inMemoryCalls } from './scenarios/in-memory';
import { openApiBootstrap } from './scenarios/openapi';
import { sameEnhancers } from './scenarios/same-enhancers';
import { toolsList } from './scenarios/list';
import { BASELINE_PREFIX, baselineRev, namesBaseline, prepareBaseline, type Baseline } from './baseline';
import { BASELINE_RATIOS, PAIRED_RATIOS } from './stats';
import { loadSystems } from './systems';

type Table = Record<string, Record<string, number>>;

/** Which way is better, per metric: throughput up, time and memory down. */
const LOWER_IS_BETTER = /\((ms|KiB)[,)]|µs per (call|request)|modules loaded/;

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const settings = quick
    ? { reps: 1, groups: 1, rounds: 1, calls: 200, maxMs: 100, seconds: 0.5, warmSeconds: 0.25, sessions: 20, memoryReps: 1, httpRounds: 1, authRounds: 1 }
    : { reps: 5, groups: 3, rounds: 3, calls: 5_000, maxMs: 120, seconds: 0.5, warmSeconds: 0.5, sessions: 1_000, memoryReps: 2, httpRounds: 7, authRounds: 5 };
  // `--systems=limit,mcp-reflect` measures only those (more alternations of the pair in the same time).
  // `--baseline=<rev>` adds `mcp-reflect@<short rev>`: the library built at <rev>, beside the current tree (baseline.ts).
  let chosen = process.argv.find((arg) => arg.startsWith('--systems='))?.slice('--systems='.length).split(',');
  const rev = baselineRev(process.argv, chosen);
  const baseline = rev === undefined ? undefined : prepareBaseline(rev);
  if (baseline) {
    // Named in --systems by any revision of its commit (or `mcp-reflect@baseline`); added when not named.
    const named = chosen?.filter((name) => name.startsWith(BASELINE_PREFIX)) ?? [];
    const other = named.find((name) => !namesBaseline(name, baseline));
    if (other) throw new Error(`--systems: ${other} is not the baseline ${baseline.name} (--baseline=${baseline.rev})`);
    chosen = chosen && [...chosen.filter((name) => !named.includes(name)), baseline.name];
  }
  const all = loadSystems(baseline?.name);
  const systems = all.filter((s) => !chosen || chosen.includes(s.name));
  if (chosen && systems.length !== chosen.length) {
    throw new Error(`--systems: choose from ${all.map((s) => s.name).join(', ')}${baseline ? '' : ', mcp-reflect@<rev> (a baseline)'}`);
  }
  if (baseline && !systems.some((s) => s.name === 'limit')) console.error('(no ratios against the limit: it is not among --systems)');
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
    g: ['(f) add variants (request scope, enhancers)', () => requestScope(systems, settings)],
    h: ['(h) CPU time checks', () => cpuChecks(systems, { reps: quick ? 1 : 3, quick })],
    i: ['(i) stateful HTTP, event stores', () => eventStores(systems, settings)],
    j: ['(j) stateless HTTP with bearer auth', () => httpBearerAuth(systems, settings)],
    k: ['(k) same enhancers, mcp-reflect in Nest against standalone', () => sameEnhancers(systems, { ...settings, quick })],
    m: ['(m) composition: proxy, namespaces', () => composition(systems, settings)],
    n: ['(n) durable work: ctx.state, task pickup and throughput', () => durable(systems, { ...settings, quick })],
    o: ['(o) bootstrap of a 1,000-operation OpenAPI document', () => openApiBootstrap(systems, settings)],
    p: ['(p) import cost of each entry', () => importCost(systems, settings)],
    w: ['(w) Workers (workerd): first call and steady state', () => workersEdge(systems, settings)],
  };
  const defaults = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'i', 'j', 'k', 'm', 'n', 'o', 'p', 'w']; // h only when asked for (two minutes a pair)
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
  const unknown = only?.filter((key) => !(key in scenarios)) ?? [];
  if (unknown.length) throw new Error(`--only: unknown scenario ${unknown.join(', ')} (choose from ${Object.keys(scenarios).join(', ')}; g = add variants, h = CPU time checks, i = event stores, j = bearer auth, k = same enhancers in Nest, m = composition, n = durable work, o = OpenAPI bootstrap, p = import cost, w = Workers on workerd)`);
  const tables: Table = {};
  for (const key of only ?? defaults) {
    const [name, run] = scenarios[key];
    Object.assign(tables, await step(name, run));
  }
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
  const ratios = Object.fromEntries(PAIRED_RATIOS);
  const versus = baseline ? { baseline, ratios: Object.fromEntries(BASELINE_RATIOS) } : {};
  const result = { date: new Date().toISOString(), quick, machine, settings, systems: systems.map((s) => s.name), results: tables, pairedRatios: ratios, ...versus };
  const root = path.resolve(__dirname, '..');
  mkdirSync(path.join(root, 'results'), { recursive: true });
  // A comparison with a baseline is never the published result (bench.json, docs/performance.md).
  const partial = only !== undefined || chosen !== undefined || baseline !== undefined;
  const file = baseline ? 'bench.baseline.json' : partial ? 'bench.partial.json' : quick ? 'bench.quick.json' : 'bench.json';
  writeFileSync(path.join(root, 'results', file), JSON.stringify(result, null, 2) + '\n');
  const markdown = render(tables, systems.map((s) => s.name), machine, settings) + (baseline ? renderBaseline(tables, baseline) : '');
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

/**
 * The current tree against the baseline, row by row: mcp-reflect's value over mcp-reflect@<rev>'s, paired
 * round by round where the row is measured in rounds (BASELINE_RATIOS), else the ratio of the two values; the
 * tables of mcp-reflect alone (variants, event stores, bearer auth, DTO styles) against their baseline twins.
 */
function renderBaseline(tables: Table, baseline: Baseline): string {
  const lines = [
    '',
    `mcp-reflect (this tree) against ${baseline.name} (\`${baseline.rev}\`: ${baseline.subject.length > 80 ? `${baseline.subject.slice(0, 80)}…` : baseline.subject}), same run:`,
    "this tree's value over the baseline's, the median of round-by-round ratios where the row alternates in rounds.",
    '↑ rows: below 1.00× is slower now; ↓ rows: above 1.00× costs more now.',
    '',
    `| scenario | mcp-reflect / ${baseline.name} |`,
    '| --- | --- |',
  ];
  // A value at or below zero (memory per session can be, in a quick run) has no meaningful ratio.
  const ratio = (paired: number | undefined, current: number, base: number) =>
    paired !== undefined ? `${paired.toFixed(2)}×` : current > 0 && base > 0 ? `${(current / base).toFixed(2)}×` : `n/a (${format(current)} against ${format(base)})`;
  for (const [scenario, values] of Object.entries(tables)) {
    const arrow = LOWER_IS_BETTER.test(scenario) ? '↓' : '↑';
    if (values['mcp-reflect'] !== undefined && values[baseline.name] !== undefined) {
      lines.push(`| ${scenario} ${arrow} | ${ratio(BASELINE_RATIOS.get(scenario), values['mcp-reflect'], values[baseline.name])} |`);
      continue;
    }
    // mcp-reflect's own tables (variants, event stores, bearer auth, DTO styles) against their baseline twins.
    const twin = scenario.includes('mcp-reflect') && !scenario.includes(BASELINE_PREFIX) ? tables[scenario.replace('mcp-reflect', baseline.name)] : undefined;
    for (const [column, value] of Object.entries(twin ? values : {})) {
      if (column !== 'limit' && twin![column] !== undefined) lines.push(`| ${scenario}: ${column} ${arrow} | ${ratio(undefined, value, twin![column])} |`);
    }
  }
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
