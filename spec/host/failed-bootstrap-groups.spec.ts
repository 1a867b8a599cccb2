import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCase } from '../support/failed-bootstrap';
import { allGone, killLaunched, launched } from '../support/launched';
import { startSignInUpstream } from '../support/signin-upstream';

/**
 * A proxied stdio remote started through a launcher — `npx some-server` is npm exec → sh → node — is ended with
 * its launcher (docs/reliability.md): spec/fixtures/failed-bootstrap/wrapper.mjs starts the remote as a child of
 * its own and forwards no signal, as such launchers do. On a failed bootstrap, on `app.close()` after a normal
 * start, and on a SIGTERM the process dies of (no listener) or closes on (`enableShutdownHooks()`), the launchers
 * and their children must all be gone, and the process must exit on its own in time.
 */
describe('a stdio remote started through a launcher', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-groups-'));
  });
  afterAll(() => {
    killLaunched(dir); // a failure here must not leave them behind either
    rmSync(dir, { recursive: true, force: true });
  });

  it.each([
    ['create', 'a failed McpFactory.create()', 'the database is unreachable', 1000],
    ['close', 'app.close() after a normal start', 'closed', 1000],
    ['signal', 'SIGTERM, no listener: the process dies of it', 'signalled', 1000],
    // The close ends the remote as the MCP stdio shutdown says: its stdin closed, SIGTERM 2 s later if it still runs.
    ['shutdown-hooks', 'SIGTERM with enableShutdownHooks(): the application closes', 'signalled', 4000],
  ])('%s: %s ends the launcher and its child, and the process exits on its own in time', async (kind, _what, message, bound) => {
    const pidFile = path.join(dir, `${kind}.pid`);
    const outcome = await runCase('groups-case.ts', kind, [kind, pidFile]);
    // Every launcher started (the SDK client's server/discover probe runs on one of its own first) and its child:
    // gone at once after a close (it waits for them), within 3 s of a signal passed on to them.
    const { launchers, remotes } = launched(pidFile);
    expect(outcome.failed.message).toBe(message);
    expect(outcome.exitAfter).toBeLessThan(bound);
    expect(remotes.length).toBeGreaterThanOrEqual(1);
    await allGone([...launchers, ...remotes]);
  }, 60_000);
});

/**
 * The authorization server (`auth.server`, on oidc-provider) leaves nothing running (docs/reliability.md): a listen
 * that fails after it was built (the port is taken), and `app.close()` after a whole sign-in at the local upstream
 * provider of samples/signin (registration, upstream login, consent, token, an MCP request with the token).
 */
describe('the authorization server', () => {
  let upstream: Awaited<ReturnType<typeof startSignInUpstream>>;
  beforeAll(async () => {
    upstream = await startSignInUpstream();
  }, 30_000);
  afterAll(() => upstream?.stop());

  it.each([
    ['listen-fails', 'a listen that fails (the port is taken)', /^Cannot listen on http:\/\/127\.0\.0\.1:\d+: the port is in use \(EADDRINUSE\)/],
    ['close', 'app.close() after a whole sign-in', /^closed$/],
  ])('%s: %s, and the process exits on its own within a second', async (kind, _what, message) => {
    const outcome = await runCase('auth-case.ts', kind, [kind, upstream.issuer]);
    expect(outcome.failed.message).toMatch(message);
    expect(outcome.exitAfter).toBeLessThan(1000);
  }, 60_000);
});
