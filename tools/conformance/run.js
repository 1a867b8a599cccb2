#!/usr/bin/env node
// `npm run conformance`: starts samples/everything over Streamable HTTP on 127.0.0.1 (a free port) and runs the
// official MCP conformance suites against it with the pinned Node 22, one after another:
//   0.1.16              conformance server --suite all                               (the released suite, 2025-11-25)
//   active              0.2.0-alpha.12 --suite active                                (2025-11-25 wire)
//   draft               0.2.0-alpha.12 --suite draft                                 (2026-07-28 wire)
//   all-2026            0.2.0-alpha.12 --suite all --spec-version 2026-07-28
//   requirements-2026   0.2.0-alpha.12 --requirements 2026-07-28                     (exit code counts scored scenarios)
//   skills, skills-2026 0.2.0-alpha.12 --scenario sep-2640-skills-* on each wire      (the skills extension, docs/skills.md;
//                       its scenarios sit in --suite pending, whose server-sse-polling only warns, so each is run alone)
//   authorization       0.2.0-alpha.12 authorization --url <issuer>                  (against samples/signin's auth.server,
//                       not samples/everything: tools/conformance/authorization.js starts it, its upstream, and signs in)
// Every run uses the CLI's baseline mode with its expected-failures file (0.1.16: expected-failures.yml here;
// alpha.12: tools/conformance-next/expected-failures.yml), so a failure not listed there, and a listed
// scenario that passes (a stale entry), both fail the run and are named in its output. Prints each run's
// "Total: N passed, M failed", then the sum over all runs as the last such line (what .ci/run counts), and
// exits 0 only when every run did.
// Options: `--only draft,all-2026` (run names above), `--scenario NAME` (one scenario in each selected run).
// alpha.12 writes every scenario's checks to tools/conformance-next/results/<run>/ (git-ignored).
// The authorization command has no baseline mode: authorization.js applies expected-failures-authorization.yml
// (here) the same way and prints the count this file sums.
'use strict';
const { spawn } = require('node:child_process');
const { serveSample } = require('./serve-sample');
const { runAuthorization } = require('./authorization');
const { existsSync, mkdirSync, rmSync } = require('node:fs');
const path = require('node:path');

const here = __dirname;
const root = path.resolve(here, '..', '..');
const next = path.join(here, '..', 'conformance-next');
const node22 = [path.join(here, 'node_modules', '.bin', 'node'), path.join(next, 'node_modules', '.bin', 'node')].find(existsSync);
const released = path.join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
const prerelease = path.join(next, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// The steering repo's list wins when it sits beside the checkout (as in CI); the copy here is the same file.
const shared = path.resolve(root, '..', 'shared', 'conformance', 'expected-failures.yml');
const expectedReleased = existsSync(shared) ? shared : path.join(here, 'expected-failures.yml');
const expectedNext = path.join(next, 'expected-failures.yml');

// The skills extension's scenarios (SEP-2640): samples/everything declares skills, so none of their checks skips.
const SKILLS = ['sep-2640-skills-enumeration', 'sep-2640-skills-manifest', 'sep-2640-skills-directory'];

const RUNS = [
  { name: '0.1.16', cli: released, cwd: here, expected: expectedReleased, args: ['--suite', 'all'] },
  { name: 'active', cli: prerelease, cwd: next, expected: expectedNext, args: ['--suite', 'active'] },
  { name: 'draft', cli: prerelease, cwd: next, expected: expectedNext, args: ['--suite', 'draft'] },
  { name: 'all-2026', cli: prerelease, cwd: next, expected: expectedNext, args: ['--suite', 'all', '--spec-version', '2026-07-28'] },
  { name: 'requirements-2026', cli: prerelease, cwd: next, expected: expectedNext, args: ['--requirements', '2026-07-28'] },
  { name: 'skills', cli: prerelease, cwd: next, expected: expectedNext, args: ['--spec-version', '2025-11-25', '--force'], scenarios: SKILLS },
  { name: 'skills-2026', cli: prerelease, cwd: next, expected: expectedNext, args: ['--spec-version', '2026-07-28', '--force'], scenarios: SKILLS },
  { name: 'authorization', cli: prerelease, cwd: next, expected: path.join(here, 'expected-failures-authorization.yml'), args: ['authorization'], authorization: true },
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
  console.log('Total: 0 passed, 1 failed');
  process.exit(1);
}

if (only && runs.length !== only.length) fail(`Unknown run in --only ${only.join(',')}: the runs are ${RUNS.map((r) => r.name).join(', ')}.`);
if (!node22 || !existsSync(released) || !existsSync(prerelease)) {
  fail('The conformance tools are not installed: run `npm run conformance:install` (tools/conformance and tools/conformance-next).');
}

// The authorization run serves its own sample: samples/everything starts only for the others.
if (runs.every((r) => r.authorization)) main().then((code) => process.exit(code), (error) => fail(error.stack));
else serveSample({ fail, run: main });

function runSuite(run, url, one = scenario) {
  if (run.authorization) return runAuthorization({ node22, cli: run.cli, cwd: run.cwd, outDir: path.join(next, 'results', run.name), expected: run.expected, scenario });
  const args = [run.cli, 'server', '--url', url, ...run.args, '--expected-failures', run.expected];
  if (run.cli === prerelease) {
    const outDir = path.join(next, 'results', run.name, ...(run.scenarios ? [one] : []));
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    args.push('-o', outDir);
  }
  if (one) args.push('--scenario', one);
  return new Promise((resolve) => {
    const suite = spawn(node22, args, { cwd: run.cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    suite.stdout.on('data', (chunk) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    suite.on('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** The totals of one CLI run. */
function count({ code, output }) {
  // A whole suite ends with "Total: N passed, M failed"; one scenario (--scenario) with "Passed: N/T, M failed".
  const total = [...output.matchAll(/Total: (\d+) passed, (\d+) failed/g)].pop() ?? [...output.matchAll(/Passed: (\d+)\/\d+, (\d+) failed/g)].pop();
  const p = total ? Number(total[1]) : 0;
  // A run that failed without failed checks (a stale expected failure, a crash) still counts one failure.
  const f = (total ? Number(total[2]) : 0) + (code !== 0 && (!total || Number(total[2]) === 0) ? 1 : 0);
  return { p, f };
}

async function main(url) {
  let passed = 0;
  let failed = 0;
  let worst = 0;
  const lines = [];
  for (const run of runs) {
    const version = run.cli === released ? '0.1.16' : '0.2.0-alpha.12';
    const target = run.authorization ? "authorization against samples/signin's auth.server" : `server ${run.args.join(' ')} against ${url}`;
    console.log(`\n=== ${run.name}: conformance ${version} ${target} (expected failures: ${path.relative(root, run.expected)}) ===`);
    // A run of named scenarios runs each alone (the CLI takes one --scenario) and adds up their totals.
    let [p, f, code] = [0, 0, 0];
    for (const one of run.scenarios ? run.scenarios.filter((name) => !scenario || name === scenario) : [scenario]) {
      const done = await runSuite(run, url, one);
      const counted = count(done);
      p += counted.p;
      f += counted.f;
      code = Math.max(code, done.code);
    }
    passed += p;
    failed += f;
    if (code !== 0) worst = 1;
    lines.push(`${run.name}: ${p} passed, ${f} failed (exit ${code})`);
  }
  console.log('\n=== Conformance summary ===');
  for (const line of lines) console.log(line);
  console.log(`Total: ${passed} passed, ${failed} failed`);
  return worst;
}
