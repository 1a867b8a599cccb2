import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import { Param, Tool } from 'mcp-reflect';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { RedisTaskQueue, RedisTaskStore } from 'mcp-reflect/redis';
import { createTestClient } from 'mcp-reflect/testing';
import { redisConnections } from '../fixtures/failed-bootstrap/shared';
import { startRedis, type RedisProcess } from '../support/redis-server';
import { waitFor } from '../support/waiting';
import { legacyRequest } from '../tasks/legacy-client';

/**
 * A Nest application's durable queue (docs/tasks.md#workers): its worker starts once the application is known to have
 * initialised — first served, or told to work (`McpService.work()`, a worker-only application) — never in
 * onApplicationBootstrap, where a later provider's failure would leave it running with nothing to close
 * (spec/nest/nest-failed-bootstrap.spec.ts). Real Redis, real BullMQ, a real SDK client.
 */
describe("a Nest application's durable queue", () => {
  let redis: RedisProcess;
  let url: URL;
  const closing: (() => Promise<unknown>)[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    url = new URL(redis.url);
  }, 30_000);
  afterEach(async () => {
    for (const close of closing.splice(0).reverse()) await close();
  });
  afterAll(() => redis?.stop());

  /** An application whose `report` tool says who ran it; `worker: false` only enqueues. (Each test's process holds several.) */
  function reportsModule(who: string, worker: boolean) {
    @Injectable()
    class Reports {
      @Tool({ task: 'optional' })
      report(@Param() year: number): string {
        return `report ${year} by ${who}`;
      }
    }
    const client = new Redis(url.href, { maxRetriesPerRequest: 1, connectionName: `${who}-store` });
    closing.push(() => client.quit());
    const queue = new RedisTaskQueue({ connection: { host: url.hostname, port: Number(url.port), maxRetriesPerRequest: null, connectionName: `${who}-queue` } });
    const store = new RedisTaskStore(client, { prefix: 'nest-queue:' });
    @Module({ imports: [McpModule.forRoot({ name: 'reports', version: '1.0.0', http: false, tasks: { store, queue, worker }, warnings: { unprovidedComponents: false } })], providers: [Reports] })
    class ReportsModule {}
    return ReportsModule;
  }

  /** Our connections Redis holds: the queue's (named after its owner, or BullMQ's blocking one) and the store's watch. */
  const working = async (who: string) =>
    (await redisConnections(url)).filter((line) => line.startsWith(`${who}-queue `) || line.endsWith(' bzpopmin') || line.endsWith(' subscribe'));

  async function runReport(server: McpService): Promise<string> {
    const client = await createTestClient(server.application);
    closing.push(() => client.close());
    const created = await legacyRequest(client, 'tools/call', { name: 'report', arguments: { year: 2026 }, task: { ttl: 60_000 } });
    expect(created.task).toMatchObject({ status: 'working' });
    const result = await legacyRequest(client, 'tasks/result', { taskId: created.task.taskId });
    return result.content[0].text;
  }

  it('a worker-only application (createApplicationContext()) takes runs once McpService.work() is called, not before', async () => {
    const worker = await NestFactory.createApplicationContext(reportsModule('worker', true), { logger: false });
    closing.push(() => worker.close());
    expect(await working('worker')).toEqual([]);

    await worker.get(McpService).work();
    await worker.get(McpService).work(); // safe to call twice
    // The worker and the store's watch connect in the background once work() has started them.
    const started = await waitFor(
      async () => {
        const now = await working('worker');
        return now.includes('worker-store subscribe') && now.some((line) => line.startsWith('worker-queue ')) ? now : undefined;
      },
      { what: "the worker's connections", timeout: 10_000 },
    );
    expect(started).toEqual(expect.arrayContaining(['worker-store subscribe', expect.stringMatching(/^worker-queue /)]));

    const server = await NestFactory.createApplicationContext(reportsModule('server', false), { logger: false });
    closing.push(() => server.close());
    expect(await runReport(server.get(McpService))).toBe('report 2026 by worker');
  }, 30_000);

  it('an application that serves starts its worker when it is first served', async () => {
    const app = await NestFactory.createApplicationContext(reportsModule('served', true), { logger: false });
    closing.push(() => app.close());
    expect(await working('served')).toEqual([]);
    expect(await runReport(app.get(McpService))).toBe('report 2026 by served');
  }, 30_000);

  it('work() after app.close() is refused, naming the fix', async () => {
    const app = await NestFactory.createApplicationContext(reportsModule('closed', true), { logger: false });
    await app.close();
    await expect(app.get(McpService).work()).rejects.toMatchObject({ code: 'APPLICATION_CLOSED', message: expect.stringContaining('Fix: call work() before app.close()') });
    expect(await working('closed')).toEqual([]);
  }, 30_000);
});
