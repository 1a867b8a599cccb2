import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo, Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startEverythingHttp, type RunningServer } from '../support/everything';
import { runCase, stillRunning, type Outcome } from '../support/failed-bootstrap';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { holdPort, serveSlowDocuments, type SlowDocuments } from '../support/slow-documents';

/**
 * A bootstrap that fails leaves nothing running (docs/reliability.md): each case of
 * spec/fixtures/failed-bootstrap/case.ts runs in its own Node process, whose bootstrap connects a proxied remote
 * and then fails (a provider's onApplicationBootstrap throws). The process must end on its own right after the
 * error reaches the caller — no child process, socket or timer of ours left — and the remote's process must be gone.
 */

function run(kind: string, pidFile: string, argument?: string): Promise<Outcome> {
  return runCase('case.ts', kind, [kind, pidFile, ...(argument ? [argument] : [])]);
}

describe('a failed bootstrap leaves nothing running', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-failed-bootstrap-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['create', 'McpFactory.create()', ['BadCleanup.onModuleDestroy() failed: the cache could not flush']],
    ['test-client', "createTestClient() of mcp-reflect/testing", ['BadCleanup.onModuleDestroy() failed: the cache could not flush']],
    ['several-servers', 'McpFactory.createServers()', []],
  ])('%s: %s ends the proxied stdio remote, and the process exits on its own within a second', async (kind, _what, cleanup) => {
    const pidFile = path.join(dir, `${kind}.pid`);
    const outcome = await run(kind, pidFile);
    // The bootstrap's error is the one thrown; a clean-up that failed too is attached, not in its place.
    expect(outcome.failed).toMatchObject({ message: 'the database is unreachable', cleanup });
    expect(outcome.exitAfter).toBeLessThan(1000);
    expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  it('a provider that fails to build: the ones built before it are destroyed, and the process exits on its own within a second', async () => {
    const outcome = await run('half-built', path.join(dir, 'half-built.pid'));
    expect(outcome.failed.message).toContain('the config is missing');
    expect(outcome.exitAfter).toBeLessThan(1000);
  }, 60_000);

  describe('with a remote over Streamable HTTP', () => {
    let remote: RunningServer;
    beforeAll(async () => {
      remote = await startEverythingHttp();
    });
    afterAll(() => remote?.stop());

    it('closes the connection to it: the process exits on its own within a second', async () => {
      const outcome = await run('create', path.join(dir, 'http.pid'), remote.url);
      expect(outcome.failed.message).toBe('the database is unreachable');
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);
  });

  describe('a listen() that fails: the caller gets an error naming the address, and after app.close() nothing is left', () => {
    let held: Server;
    beforeAll(async () => {
      held = await holdPort();
    });
    afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

    it.each([
      ['listen-in-use', () => String((held.address() as AddressInfo).port), () => `Cannot listen on http://127.0.0.1:${(held.address() as AddressInfo).port}: the port is in use (EADDRINUSE).`],
      ['listen-no-address', () => undefined, () => 'Cannot listen on http://192.0.2.1:0: no network interface of this machine has the address 192.0.2.1 (EADDRNOTAVAIL).'],
      ['listen-unknown-host', () => undefined, () => "Cannot listen on http://no-such-host.invalid:0: the host name 'no-such-host.invalid' does not resolve (ENOTFOUND)."],
    ])('%s: the remote ends with app.close(), and the process exits on its own within a second', async (kind, argument, message) => {
      const pidFile = path.join(dir, `${kind}.pid`);
      const outcome = await run(kind, pidFile, argument());
      expect(outcome.failed.message.split('\n')[0]).toBe(message());
      expect(outcome.failed.message).toMatch(/\nFix: /);
      expect(outcome.exitAfter).toBeLessThan(1000);
      expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
    }, 60_000);
  });

  it('close-while-listening: app.close() called as listen() begins: both settle, and the process exits on its own within a second', async () => {
    const pidFile = path.join(dir, 'close-while-listening.pid');
    const outcome = await run('close-while-listening', pidFile);
    expect(outcome.failed.message).toBe('Cannot listen: the application was closed while it was starting to listen.\nFix: await app.listen() before closing the application, or create a new one with McpFactory.create().');
    expect(outcome.exitAfter).toBeLessThan(1000);
    expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  it('otel: with the OpenTelemetryInterceptor of every call, the process exits on its own within a second', async () => {
    const pidFile = path.join(dir, 'otel.pid');
    const outcome = await run('otel', pidFile);
    expect(outcome.failed.message).toBe('the database is unreachable');
    expect(outcome.exitAfter).toBeLessThan(1000);
    expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  describe('McpModule.fromOpenApi() whose document is still being read when the bootstrap fails', () => {
    let documents: SlowDocuments;
    beforeAll(async () => {
      documents = await serveSlowDocuments();
    });
    afterAll(() => documents?.stop());

    // Standalone, a provider's onApplicationBootstrap waits for the one before it: the reading fails the bootstrap
    // once documentTimeout is over, and its request must not outlive it.
    it.each([['never answers', 'never'], ['dribbles its body', 'dribble']])('a server that %s: the fetch is aborted, its socket closed, and the process exits on its own within a second', async (_what, path) => {
      const outcome = await run('openapi', '-', `${documents.url}/${path}`);
      expect(outcome.failed.message).toContain('took longer than documentTimeout (300 ms)');
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);
  });

  describe('with the Redis parts: RedisTaskQueue (BullMQ), RedisTaskStore, RedisStateStore', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await startRedis();
    }, 30_000);
    afterAll(() => redis?.stop());

    // At once: the queue's worker is still starting its lanes (on main, the second lane's worker started after the
    // queue had closed, and kept the process alive). After 500 ms: every connection is open.
    it.each([['at once', 0], ['after 500 ms', 500]])('failing %s, leaves no Redis connection of its own, and the process exits on its own within a second', async (_when, delay) => {
      const outcome = await runCase('redis-case.ts', 'redis', [redis.url, String(delay)]);
      expect(outcome.failed).toMatchObject({ message: 'the database is unreachable', cleanup: [], connections: [] });
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);
  });
});
