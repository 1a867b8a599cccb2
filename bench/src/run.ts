import 'reflect-metadata';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bootstrapTimes, requestScope } from './scenarios/bootstrap';
import { coldStart } from './scenarios/cold-start';
import { httpThroughput, memoryPerSession } from './scenarios/http';
import { inMemoryCalls } from './scenarios/in-memory';
import { toolsList } from './scenarios/list';
import { loadSystems } from './systems';

type Table = Record<string, Record<string, number>>;

/** Which way is better, per metric: throughput up, time and memory down. */
const LOWER_IS_BETTER = /\((ms|KiB)[,)]|µs per call/;

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const settings = quick
    ? { reps: 1, calls: 200, maxMs: 100, seconds: 0.5, warmSeconds: 0.25, sessions: 20 }
    : { reps: 5, calls: 5_000, maxMs: 300, seconds: 0.75, warmSeconds: 0.5, sessions: 1_000 };
  const systems = loadSystems();
  const started = Date.now();
  const step = async (name: string, run: () => Promise<Table>): Promise<Table> => {
    const t = Date.now();
    const table = await run();
    console.error(`  ${name}: ${((Date.now() - t) / 1000).toFixed(1)} s`);
    return table;
  };
  console.error(`Benchmarking ${systems.map((s) => s.name).join(', ')}${quick ? ' (quick)' : ''}`);
  const tables: Table = {
    ...(await step('(a) in-memory tools/call', () => inMemoryCalls(systems, settings))),
    ...(await step('(b) tools/list', () => toolsList(systems, settings))),
    ...(await step('(c) stdio cold start', () => coldStart(systems, settings))),
    ...(await step('(d) HTTP stateless', () => httpThroughput(systems, settings))),
    ...(await step('(e) memory per session', () => memoryPerSession(systems, settings))),
    ...(await step('(f) bootstrap', () => bootstrapTimes(systems, settings))),
    ...(await step('(f) request scope', () => requestScope(settings))),
  };
  const machine = `${os.cpus()[0]?.model ?? 'unknown CPU'}, ${os.cpus().length} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}, Node ${process.version}`;
  const result = { date: new Date().toISOString(), quick, machine, settings, systems: systems.map((s) => s.name), results: tables };
  const root = path.resolve(__dirname, '..');
  mkdirSync(path.join(root, 'results'), { recursive: true });
  writeFileSync(path.join(root, 'results', quick ? 'bench.quick.json' : 'bench.json'), JSON.stringify(result, null, 2) + '\n');
  const markdown = render(tables, systems.map((s) => s.name), machine, settings);
  console.log(markdown);
  if (!quick) writeResults(path.resolve(root, '..', 'docs', 'performance.md'), markdown);
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
      // A table of its own (mcp-reflect variants), with ratios when the limit was measured alongside.
      const reference = values.limit;
      const cell = (value: number) => `${format(value)}${reference ? ` (${(value / reference).toFixed(2)}×)` : ''}`;
      extra.push('', `| ${scenario} | ${Object.keys(values).join(' | ')} |`, `| --- | ${Object.keys(values).map(() => '---').join(' | ')} |`);
      extra.push(`| ${LOWER_IS_BETTER.test(scenario) ? '↓' : '↑'} | ${Object.values(values).map(cell).join(' | ')} |`);
      continue;
    }
    const limit = values.limit;
    const lower = LOWER_IS_BETTER.test(scenario);
    const cells = systems.map((name) => {
      const value = values[name];
      if (value === undefined) return 'n/a';
      const ratio = limit ? ` (${(value / limit).toFixed(2)}×)` : '';
      return `${format(value)}${ratio}`;
    });
    lines.push(`| ${scenario} ${lower ? '↓' : '↑'} | ${cells.join(' | ')} |`);
  }
  lines.push('', '↑ higher is better, ↓ lower is better; ratios are against the limit (raw SDK v2 low-level Server + ajv).');
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
