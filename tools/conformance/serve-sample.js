// Starts samples/everything over Streamable HTTP on 127.0.0.1 (a free port), as both conformance runners need it:
// calls `run(url)` once the sample prints `MCP_URL=…`, then stops the sample and exits with run's code. `fail` is
// the runner's own (it prints what its caller counts); `stderr` is 'inherit' or a writable stream.
'use strict';
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function serveSample({ stderr = 'inherit', fail, run }) {
  const server = spawn(
    process.execPath,
    ['-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'samples', 'everything', 'main.ts'), '--http', '--port', '0'],
    { cwd: root, stdio: ['ignore', 'pipe', stderr === 'inherit' ? 'inherit' : 'pipe'] },
  );
  if (stderr !== 'inherit') server.stderr.pipe(stderr);
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
    server.stdout.resume(); // keep draining the sample's stdout
    run(match[1]).then(
      (code) => {
        stop();
        process.exit(code);
      },
      (error) => fail(error.stack),
    );
  });
  server.on('exit', (code) => {
    if (buffered.includes('MCP_URL=')) return;
    fail(`The everything sample exited (${code}) before it was ready.`);
  });
}

module.exports = { serveSample };
