import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCase } from '../support/failed-bootstrap';
import { freePort } from '../support/free-port';
import { allGone, killLaunched, launched } from '../support/launched';
import { startSignInUpstream } from '../support/signin-upstream';

/**
 * In a Nest application too, a proxied stdio remote started through a launcher (`npx pkg`: npm → sh → node;
 * spec/fixtures/failed-bootstrap/wrapper.mjs forwards no signal) is ended with its launcher (docs/reliability.md):
 * after `app.listen()` has connected it, `app.close()` leaves neither, and the process exits on its own within a
 * second.
 */
describe('a Nest application with a stdio remote started through a launcher', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-nest-groups-'));
  });
  afterAll(() => {
    killLaunched(dir); // a failure here must not leave them behind either
    rmSync(dir, { recursive: true, force: true });
  });

  it('app.close() after listen() ends the launcher and its child, and the process exits on its own within a second', async () => {
    const pidFile = path.join(dir, 'close.pid');
    const outcome = await runCase('nest-groups-case.ts', 'nest-groups', ['close', pidFile]);
    const { launchers, remotes } = launched(pidFile);
    expect(outcome.failed.message).toBe('closed');
    expect(outcome.exitAfter).toBeLessThan(1000);
    expect(remotes.length).toBeGreaterThanOrEqual(1);
    await allGone([...launchers, ...remotes]);
  }, 60_000);
});

/**
 * The authorization server (`auth.server`) of a Nest application (`http: { mount: 'server' }`) leaves nothing
 * running (docs/reliability.md): an init that fails after McpService's, followed by `app.close()` as
 * docs/nestjs.md says, and `app.close()` after a whole sign-in at the local upstream provider of samples/signin.
 */
describe('a Nest application with the authorization server', () => {
  let upstream: Awaited<ReturnType<typeof startSignInUpstream>>;
  beforeAll(async () => {
    upstream = await startSignInUpstream();
  }, 30_000);
  afterAll(() => upstream?.stop());

  it.each([
    ['init-fails', 'an init that fails, then app.close()', 'the database is unreachable'],
    ['close', 'app.close() after a whole sign-in', 'closed'],
  ])('%s: %s, and the process exits on its own within a second', async (kind, _what, message) => {
    const outcome = await runCase('nest-auth-case.ts', kind, [kind, upstream.issuer, String(await freePort())]);
    expect(outcome.failed.message).toBe(message);
    expect(outcome.exitAfter).toBeLessThan(1000);
  }, 60_000);
});
