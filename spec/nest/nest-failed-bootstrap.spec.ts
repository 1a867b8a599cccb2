import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import type { AddressInfo, Server } from 'node:net';
import path from 'node:path';
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';
import { runCase, stillRunning } from '../support/failed-bootstrap';
import { everythingStdio } from '../support/everything';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { holdPort, serveSlowDocuments, type SlowDocuments } from '../support/slow-documents';

/**
 * A Nest application whose init fails leaves nothing running (docs/reliability.md): each case of
 * spec/fixtures/failed-bootstrap/nest-case.ts runs in its own Node process, with McpModule.forRoot() and
 * McpModule.proxy({ stdio }), and a provider of the root module whose onApplicationBootstrap throws after
 * McpService's has run. Nest runs no shutdown hook then, and createApplicationContext() leaves the caller nothing
 * to close: the remote must not have been left running (McpService connects it once the application is first
 * served), and the process must end on its own right after the error reaches the caller.
 */
describe('a Nest application whose init fails leaves nothing running', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-nest-failed-bootstrap-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it.each([
    ['context', 'NestFactory.createApplicationContext()'],
    ['app', 'NestFactory.create() then app.init()'],
    ['testing', 'Test.createTestingModule().compile(), createNestApplication().init()'],
    ['testing-close', 'the same, then app.close() as docs/nestjs.md says'],
  ])('%s: %s leaves no remote running, and the process exits on its own within a second', async (kind) => {
    const pidFile = path.join(dir, `${kind}.pid`);
    const outcome = await runCase('nest-case.ts', kind, [kind, pidFile]);
    expect(outcome.failed).toMatchObject({ message: 'the database is unreachable', cleanup: [] });
    expect(outcome.exitAfter).toBeLessThan(1000);
    // The remote writes its pid as it starts: none, or one that is gone.
    if (existsSync(pidFile)) expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  describe('a listen() that fails (Nest binds its own server): its error names the address, and after app.close() nothing is left', () => {
    let held: Server;
    beforeAll(async () => {
      held = await holdPort();
    });
    afterAll(() => new Promise<void>((resolve) => held.close(() => resolve())));

    const port = (): number => (held.address() as AddressInfo).port;
    it.each([
      ['listen-in-use', true, (): string => `listen EADDRINUSE: address already in use 127.0.0.1:${port()}`],
      ['listen-no-address', false, (): string => 'listen EADDRNOTAVAIL: address not available 192.0.2.1'],
    ])('%s: the remote never started, and the process exits on its own within a second', async (kind, holds, message) => {
      const pidFile = path.join(dir, `${kind}.pid`);
      const outcome = await runCase('nest-case.ts', kind, [kind, pidFile, ...(holds ? [String(port())] : [])]);
      expect(outcome.failed.message).toBe(message());
      expect(outcome.exitAfter).toBeLessThan(1000);
      expect(existsSync(pidFile)).toBe(false);
    }, 60_000);
  });

  // On main, Nest bound its HTTP server after the close (it closes it before listen() has bound it), and McpService
  // built its application after its own shutdown hook had run: the process kept listening.
  it('close-while-listening: app.close() called as app.listen() begins: both settle, nothing listens, and the process exits on its own within a second', async () => {
    const pidFile = path.join(dir, 'close-while-listening.pid');
    const outcome = await runCase('nest-case.ts', 'close-while-listening', ['close-while-listening', pidFile]);
    expect(outcome.failed.message).toMatch(/^closed while starting; listen\(\) /);
    expect(outcome.exitAfter).toBeLessThan(1000);
    if (existsSync(pidFile)) expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  it('otel: with the OpenTelemetryInterceptor as middleware of every request, the process exits on its own within a second', async () => {
    const pidFile = path.join(dir, 'otel.pid');
    const outcome = await runCase('nest-case.ts', 'otel', ['otel', pidFile]);
    expect(outcome.failed.message).toBe('the database is unreachable');
    expect(outcome.exitAfter).toBeLessThan(1000);
    if (existsSync(pidFile)) expect(await stillRunning(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  }, 60_000);

  describe('McpModule.fromOpenApi() whose document is still being read', () => {
    let documents: SlowDocuments;
    beforeAll(async () => {
      documents = await serveSlowDocuments();
    });
    afterAll(() => documents?.stop());

    // On main, the other document's fetch went on until its documentTimeout (10 s), keeping the process alive.
    it('when another document fails the init: its fetch is aborted, and the process exits on its own within a second', async () => {
      const outcome = await runCase('nest-case.ts', 'openapi', ['openapi', '-', documents.url]);
      expect(outcome.failed.message).toContain(`Cannot serve the OpenAPI document ${documents.url}/missing (McpModule.fromOpenApi({ namespace: 'missing' })): its URL answered HTTP 404.`);
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);

    it('when app.close() is called during the init: the fetch is aborted, the init rejects, and the process exits on its own within a second', async () => {
      const outcome = await runCase('nest-case.ts', 'close-while-reading', ['close-while-reading', '-', documents.url]);
      expect(outcome.failed.message).toBe(
        `Cannot serve the OpenAPI document ${documents.url}/never (McpModule.fromOpenApi({ namespace: 'never' })): the application stopped while it was being read.\n` +
          'Fix: nothing, if the application was closed on purpose; otherwise see why its bootstrap failed (the error thrown first).',
      );
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);
  });

  describe('with a Redis task store and a durable queue', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await startRedis();
    }, 30_000);
    afterAll(() => redis?.stop());

    // The queue's worker and the store's watch start once the application is first served, app.listen() has bound,
    // or McpService.work() is called (a worker-only application), not in onApplicationBootstrap: on main they started
    // there, and createApplicationContext(), which leaves the caller nothing to close, kept their connections.
    it.each([
      ['context', 'NestFactory.createApplicationContext(): nothing to close'],
      ['app', 'NestFactory.create() then init(), then app.close() as docs/nestjs.md says'],
    ])('%s: %s; no Redis connection of ours is left, and the process exits on its own within a second', async (kind) => {
      const outcome = await runCase('nest-redis-case.ts', `nest-redis-${kind}`, [redis.url, kind]);
      expect(outcome.failed).toMatchObject({ message: 'the database is unreachable', connections: [] });
      expect(outcome.exitAfter).toBeLessThan(1000);
    }, 60_000);
  });

  describe('an application that initialised connects its remotes', () => {
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', http: { path: '/mcp' } }), McpModule.proxy({ namespace: 'ev', stdio: everythingStdio })] })
    class GatewayModule {}

    it("once Nest's app.listen() has bound, before any request", async () => {
      const app = await NestFactory.create(GatewayModule, { logger: false });
      try {
        await app.init();
        const application = app.get(McpService).application;
        expect(application.inspect().tools.map((t) => t.name)).not.toContain('ev_echo');
        await app.listen(0, '127.0.0.1');
        const deadline = Date.now() + 20_000;
        while (!application.inspect().tools.some((t) => t.name === 'ev_echo') && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
        expect(application.inspect().tools.map((t) => t.name)).toContain('ev_echo');
      } finally {
        await app.close();
      }
    }, 60_000);

    it('once it is first served: the first connection lists them', async () => {
      const app = await NestFactory.createApplicationContext(GatewayModule, { logger: false });
      const client = await createTestClient(app.get(McpService).application);
      try {
        expect((await client.listTools()).tools.map((t) => t.name)).toContain('ev_echo');
      } finally {
        await client.close();
        await app.close();
      }
    }, 60_000);
  });
});
