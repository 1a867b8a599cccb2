#!/usr/bin/env node
// `npm run conformance:next`: a SURVEY of the pre-release suite @modelcontextprotocol/conformance
// 0.2.0-alpha.12 (the 2026-07-28 revision) against samples/everything, per scenario. `npm run conformance`
// (tools/conformance/run.js, in .ci/run) makes four of these runs (not pending) with expected-failures.yml as
// the baseline; this one reports every check (see SURVEY.md). Starts samples/everything over Streamable HTTP on
// 127.0.0.1 (a free port) the way tools/conformance/run.js does, then runs, one after another:
//   --suite active | --suite draft | --suite all --spec-version 2026-07-28 | --suite pending | --requirements 2026-07-28
// Each run's full output and per-scenario checks go to tools/conformance-next/results/<run>/ (git-ignored);
// the console gets per-scenario PASS/FAIL lines (failed check ids named) and each run's totals.
// Options: `--only active,draft` (run names below), `--scenario NAME` (one scenario in every selected run).
// Exit code: 0 when every run exited 0, else 1 (informational: nothing depends on it).
'use strict';
const { spawn } = require('node:child_process');
const { serveSample } = require('../conformance/serve-sample');
const { existsSync, mkdirSync, rmSync, readdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const here = __dirname;
const root = path.resolve(here, '..', '..');
// The Node 22 of this folder's own install (`npm ci --prefix tools/conformance-next`); when that is absent,
// the identical Node 22 that tools/conformance pins (same `node` package version), so no second copy is needed.
const node22 = [path.join(here, 'node_modules', '.bin', 'node'), path.join(here, '..', 'conformance', 'node_modules', '.bin', 'node')].find(existsSync);
const cli = path.join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const resultsDir = path.join(here, 'results');

const RUNS = [
  { name: 'active', args: ['--suite', 'active'] },
  { name: 'draft', args: ['--suite', 'draft'] },
  { name: 'all-2026', args: ['--suite', 'all', '--spec-version', '2026-07-28'] },
  { name: 'pending', args: ['--suite', 'pending'] },
  { name: 'requirements-2026', args: ['--requirements', '2026-07-28'] },
];

const argv = process.argv.slice(2);
const opt = (name) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
};
const only = opt('--only')?.split(',');
const scenario = opt('--scenario');
const runs = only ? RUNS.filter((r) => only.includes(r.name)) : RUNS;

function fail(message) {
  console.error(message);
  process.exit(1);
}

if (!node22 || !existsSync(cli)) fail('The pre-release conformance suite is not installed: run `npm ci --prefix tools/conformance-next`.');

mkdirSync(resultsDir, { recursive: true });
// The server's own log lines (rejected requests, …) go to results/server.log, not the report.
serveSample({ stderr: require('node:fs').createWriteStream(path.join(resultsDir, 'server.log')), fail, run: main });

function runSuite(run, url) {
  const outDir = path.join(resultsDir, run.name);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const args = [cli, 'server', '--url', url, ...run.args, '-o', outDir];
  if (scenario) args.push('--scenario', scenario);
  return new Promise((resolve) => {
    const suite = spawn(node22, args, { cwd: here, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    suite.stdout.on('data', (chunk) => (output += chunk));
    suite.stderr.on('data', (chunk) => (output += chunk));
    suite.on('exit', (code) => {
      writeFileSync(path.join(outDir, 'output.txt'), output);
      resolve({ code: code ?? 1, output, outDir });
    });
  });
}

// Per-scenario results from the -o directory: <outDir>/<scenario>[-<timestamp>]/checks.json (arrays of
// {id, status, ...}). Falls back to the console output when a scenario threw and wrote no checks.json.
function scenarioResults(outDir) {
  const rows = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === 'checks.json') {
        let checks = JSON.parse(readFileSync(full, 'utf8'));
        if (!Array.isArray(checks)) checks = checks.checks ?? [];
        const name = path.relative(outDir, dir).split(path.sep)[0].replace(/^server-/, '').replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z?$/, '');
        const failed = checks.filter((c) => c.status === 'FAILURE');
        const warnings = checks.filter((c) => c.status === 'WARNING');
        rows.push({ name, checks: checks.length, failed: failed.map((c) => c.id), warnings: warnings.map((c) => c.id) });
      }
    }
  };
  if (existsSync(outDir)) walk(outDir);
  return rows.sort((a, b) => a.name.localeCompare(b.name));
}

async function main(url) {
  console.log(`Pre-release conformance suite 0.2.0-alpha.12 (Node ${path.relative(root, node22)}) against samples/everything at ${url}`);
  const summary = [];
  let worst = 0;
  for (const run of runs) {
    const { code, output, outDir } = await runSuite(run, url);
    const rows = scenarioResults(outDir);
    console.log(`\n=== ${run.name}: conformance server ${run.args.join(' ')} (exit ${code}) ===`);
    for (const row of rows) {
      const status = row.failed.length ? 'FAIL' : 'PASS';
      const extra = row.failed.length ? `  failed: ${row.failed.join(', ')}` : '';
      const warn = row.warnings.length ? `  warnings: ${row.warnings.join(', ')}` : '';
      console.log(`  ${status}  ${row.name} (${row.checks} checks)${extra}${warn}`);
    }
    // A scenario that threw is recorded by the CLI as one failed check and writes no checks.json: add it.
    const started = [...output.matchAll(/=== Running scenario: (\S+) ===/g)].map((m) => m[1]);
    for (const name of started) {
      if (rows.some((r) => r.name === name)) continue;
      rows.push({ name, checks: 1, failed: [`${name} (threw, no checks.json)`], warnings: [] });
      console.log(`  FAIL  ${name} (threw: see results/${run.name}/output.txt)`);
    }
    const total = /Total: (\d+) passed, (\d+) failed/.exec(output);
    const scenariosFailed = rows.filter((r) => r.failed.length).length;
    // --requirements: scenarios outside the frozen revision (extensions, pending) are run but not scored.
    const unscored = new Set([...(output.split('Not scored')[1] ?? '').matchAll(/^\s+[✗✓] (\S+) \(/gm)].map((m) => m[1]));
    const scored = unscored.size ? rows.filter((r) => !unscored.has(r.name)) : [];
    const scoredLine = unscored.size
      ? `; scored scenarios: ${scored.filter((r) => !r.failed.length).length} passed, ${scored.filter((r) => r.failed.length).length} failed (${unscored.size} unscored)`
      : '';
    const line = `${run.name}: ${total ? `${total[1]} passed, ${total[2]} failed (checks)` : 'no total line'}; scenarios: ${rows.length - scenariosFailed} passed, ${scenariosFailed} failed${scoredLine}; exit ${code}`;
    console.log(`  -- ${line}`);
    summary.push(line);
    if (code !== 0) worst = 1;
  }
  console.log('\n=== Summary ===');
  for (const line of summary) console.log(line);
  return worst;
}
