#!/usr/bin/env node
// `npm run conformance`: starts samples/everything over Streamable HTTP on 127.0.0.1 (a free port), runs the
// official suite (`conformance server --suite all`) against it with the pinned Node 22, stops the server,
// prints the suite's "Total: N passed, M failed" line and exits with the suite's code.
'use strict';
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const path = require('node:path');

const here = __dirname;
const root = path.resolve(here, '..', '..');
const node22 = path.join(here, 'node_modules', '.bin', 'node');
const cli = path.join(here, 'node_modules', '@modelcontextprotocol', 'conformance', 'dist', 'index.js');
// The steering repo's list wins when it sits beside the checkout (as in CI); the copy here is the same file.
const shared = path.resolve(root, '..', 'shared', 'conformance', 'expected-failures.yml');
const expected = existsSync(shared) ? shared : path.join(here, 'expected-failures.yml');

function fail(message) {
  console.error(message);
  console.log('Total: 0 passed, 1 failed');
  process.exit(1);
}

if (!existsSync(node22) || !existsSync(cli)) fail('The conformance tools are not installed: run `npm ci --prefix tools/conformance`.');

const server = spawn(
  process.execPath,
  ['-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'samples', 'everything', 'main.ts'), '--http', '--port', '0'],
  { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
);
const stop = () => server.exitCode === null && server.kill('SIGTERM');
process.on('exit', stop);

let buffered = '';
const timer = setTimeout(() => fail('The everything sample did not report its URL within 30 s.'), 30_000);
server.stdout.on('data', (chunk) => {
  buffered += chunk;
  const match = /MCP_URL=(\S+)/.exec(buffered);
  if (!match) return;
  clearTimeout(timer);
  server.stdout.removeAllListeners('data');
  run(match[1]);
});
server.on('exit', (code) => {
  if (buffered.includes('MCP_URL=')) return;
  fail(`The everything sample exited (${code}) before it was ready.`);
});

function run(url) {
  console.log(`Conformance suite 0.1.16 against ${url} (expected failures: ${path.relative(root, expected)})`);
  const suite = spawn(node22, [cli, 'server', '--url', url, '--suite', 'all', '--expected-failures', expected], {
    cwd: here,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  suite.stdout.on('data', (chunk) => {
    output += chunk;
    process.stdout.write(chunk);
  });
  suite.on('exit', (code) => {
    stop();
    const total = /Total: \d+ passed, \d+ failed/.exec(output);
    if (total) console.log(total[0]);
    process.exit(code ?? 1);
  });
}
