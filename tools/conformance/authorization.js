// The `authorization` run of `npm run conformance` (tools/conformance/run.js): the pre-release suite's
// authorization-server scenarios (`conformance authorization`, 0.2.0-alpha.12) against the `auth.server` of
// samples/signin, signing users in at its local upstream (samples/signin/upstream.mjs), both on 127.0.0.1 on free
// ports. The suite needs a registered client and a person at a browser: this file registers a public client by
// DCR (RFC 7591) with the suite's loopback callback as redirect URI, and plays the browser — it follows the
// authorization URL the suite prints through the upstream's login and consent and this server's consent, then
// delivers the redirect to the suite's callback listener.
// The CLI has no baseline mode for this command, so the baseline is applied here, as the CLI does it for
// `server`: expected-failures-authorization.yml lists scenarios that may fail (with why); a failing scenario not
// listed, or a listed one that passes, fails the run. A WARNING counts as a failure there, as in the CLI.
'use strict';
const { spawn } = require('node:child_process');
const { createServer } = require('node:net');
const { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

/** Starts `args` with node; resolves with the first match of `ready` on its stderr. */
function start(args, env, ready, children) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  children.push(child);
  let seen = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start within 30 s:\n${seen}`)), 30_000);
    child.stderr.on('data', (chunk) => {
      seen += chunk;
      const match = ready.exec(seen);
      if (!match) return;
      clearTimeout(timer);
      child.stderr.removeAllListeners('data');
      child.stderr.resume();
      resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${seen}`)));
  });
}

/** A port free now on 127.0.0.1 (the suite binds its callback listener to the number it is given). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
    probe.on('error', reject);
  });
}

async function registerClient(issuer, redirectUri) {
  const metadata = await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json();
  const response = await fetch(metadata.registration_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'MCP conformance suite', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
  });
  const body = await response.json();
  if (!body.client_id) throw new Error(`Dynamic client registration at ${metadata.registration_endpoint} answered ${response.status}: ${JSON.stringify(body)}`);
  return body.client_id;
}

/**
 * A scripted browser (as spec/auth-server/support.ts `browse`): follows redirects by hand keeping cookies per
 * origin, submits each page's form (the upstream's development login takes any login and password; every consent
 * is allowed), and stops at the first redirect to `redirectPrefix`, which it returns.
 */
async function browse(start, redirectPrefix) {
  const jar = new Map();
  let url = new URL(start);
  let form;
  for (let step = 0; step < 30; step++) {
    if (url.href.startsWith(redirectPrefix)) return url;
    const cookies = jar.get(url.origin) ?? new Map();
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: form } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      if (/max-age=0|expires=Thu, 01 Jan 1970/i.test(header)) cookies.delete(pair.slice(0, eq));
      else cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    jar.set(url.origin, cookies);
    const location = response.headers.get('location');
    form = undefined;
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*\saction="([^"]*)"/.exec(html)?.[1];
    if (!action) throw new Error(`The sign-in page ${url.href} answered ${response.status} with no form: ${html.slice(0, 600)}`);
    form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]*)"[^>]*value="([^"]*)"/g)) form.set(name, value.replace(/&amp;/g, '&'));
    if (form.get('prompt') === 'login') {
      form.set('login', 'conformance');
      form.set('password', 'any');
    }
    if (html.includes('name="decision"')) form.set('decision', 'allow');
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error(`The sign-in did not redirect to ${redirectPrefix} within 30 steps.`);
}

/** The browser's last step: the redirect to the suite's callback listener (retried while it starts to listen). */
async function deliver(redirect) {
  for (let attempt = 0; ; attempt++) {
    try {
      return void (await (await fetch(redirect)).text());
    } catch (error) {
      if (attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

/** The `authorization:` list of a baseline file: scenario names (comments say why each is there). */
function readBaseline(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const names = [];
  let inside = false;
  for (const line of lines) {
    if (/^authorization:\s*\[\]\s*$/.test(line)) return [];
    if (/^authorization:\s*$/.test(line)) inside = true;
    else if (/^\S/.test(line)) inside = false;
    else if (inside) {
      const item = /^\s+-\s+([\w./-]+)/.exec(line);
      if (item) names.push(item[1]);
    }
  }
  return names;
}

/** Every scenario's checks, from the suite's -o folder (`authorization-server-<scenario>-<time>/checks.json`). */
function readChecks(outDir) {
  const results = new Map();
  for (const dir of readdirSync(outDir)) {
    const match = /^authorization-server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir);
    // A scenario the suite was stopped in has a folder but no checks.json.
    const file = path.join(outDir, dir, 'checks.json');
    if (match && existsSync(file)) results.set(match[1], JSON.parse(readFileSync(file, 'utf8')));
  }
  return results;
}

/**
 * Runs the suite; resolves with `{ code, output }` as run.js expects of a run: the output (the suite's, then the
 * baseline's) ends with "With the baseline: Total: N passed, M failed" (M = failed checks not in the baseline, plus
 * 1 per stale entry, plus 1 when the suite exited non-zero without a failed check).
 */
async function runAuthorization({ node22, cli, cwd, outDir, expected, scenario }) {
  const children = [];
  let output = '';
  // What run.js reads (its last "Total:" line) is this run's whole output: the suite's and the baseline's.
  const out = (text) => {
    output += text;
    process.stdout.write(text);
  };
  try {
    const upstream = await start([path.join('samples', 'signin', 'upstream.mjs')], { UPSTREAM_PORT: '0' }, /upstream sign-in provider at (\S+)/, children);
    const mcpUrl = await start(['-r', './spec/support/register.js', path.join('samples', 'signin', 'main.ts')], { PORT: '0', HOST: '127.0.0.1', UPSTREAM_ISSUER: upstream }, /notes MCP server on (\S+),/, children);
    const issuer = new URL(mcpUrl).origin;
    const port = await freePort();
    const callback = `http://127.0.0.1:${port}/callback`;
    const clientId = await registerClient(issuer, callback);
    out(`auth.server of samples/signin at ${issuer} (resource ${mcpUrl}, upstream ${upstream}); client ${clientId} registered for ${callback}\n`);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const args = [cli, 'authorization', '--url', issuer, '--client-id', clientId, '--resource', mcpUrl, '--port', String(port), '-o', outDir];
    if (scenario) args.push('--scenario', scenario);
    const suite = spawn(node22, args, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    children.push(suite);
    let signIn;
    suite.stdout.on('data', (chunk) => {
      out(String(chunk));
      // The suite prints the authorization URL for a person to open, then waits for its callback.
      const authorizationUrl = signIn ? undefined : /^(http\S+\/authorize\?\S+)$/m.exec(output)?.[1];
      if (!authorizationUrl) return;
      signIn = browse(authorizationUrl, callback).then(
        (redirect) => deliver(redirect),
        (error) => {
          // The suite would wait 5 minutes for a callback that will not come: stop it (the run fails).
          out(`The scripted sign-in failed: ${error.message}\n`);
          suite.kill('SIGTERM');
        },
      );
    });
    const code = await new Promise((resolve) => suite.on('exit', (c) => resolve(c ?? 1)));
    await signIn;
    return { code: applyBaseline(readChecks(outDir), readBaseline(expected), code, out), output };
  } catch (error) {
    out(`${error.message}\n`);
    return { code: 1, output };
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
  }
}

/** The CLI's baseline rule (as for `server --expected-failures`), printed the same way; returns the exit code. */
function applyBaseline(results, expected, suiteCode, out) {
  const failing = (checks) => checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  const unexpected = [...results].filter(([name, checks]) => failing(checks) && !expected.includes(name)).map(([name]) => name);
  const stale = expected.filter((name) => results.has(name) && !failing(results.get(name)));
  const listed = expected.filter((name) => results.has(name) && failing(results.get(name)));
  if (listed.length) out(`\nExpected failures (in baseline):\n${listed.map((n) => `  ~ ${n}\n`).join('')}`);
  if (stale.length) out(`\nStale baseline entries (now passing - remove from baseline):\n${stale.map((n) => `  ✓ ${n}\n`).join('')}`);
  if (unexpected.length) out(`\nUnexpected failures:\n${unexpected.map((n) => `  ✗ ${n}\n`).join('')}`);
  if (results.size === 0) out('\nThe suite saved no results.\n');
  else if (suiteCode !== 0 && unexpected.length === 0 && listed.length === 0) out(`\nThe suite exited ${suiteCode} without a failed check: it was stopped, or it crashed.\n`);
  // The count run.js sums (its last "Total:" line): failed checks outside the baseline, and one per stale entry.
  const all = [...results];
  const passed = all.reduce((n, [, checks]) => n + checks.filter((c) => c.status === 'SUCCESS').length, 0);
  const failed =
    all.filter(([name]) => !expected.includes(name)).reduce((n, [, checks]) => n + checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING').length, 0) +
    stale.length +
    (suiteCode !== 0 && unexpected.length === 0 && listed.length === 0 ? 1 : 0);
  out(`\nWith the baseline: Total: ${passed} passed, ${failed} failed\n`);
  // Without failures outside the baseline, the suite's own non-zero exit comes from listed failures only.
  return unexpected.length || stale.length || results.size === 0 || (suiteCode !== 0 && listed.length === 0) ? 1 : 0;
}

module.exports = { runAuthorization };
