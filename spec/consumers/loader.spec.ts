import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { EVERYTHING } from '../support/everything';
import { startRedis } from '../support/redis-server';
import { basePackages, childEnv, docFiles, jestPackages, makeProject, pack, pinned, runAsync } from './consumer';

/**
 * Issue 39, items 1 and 2, as a user meets them: the packed tarball in a fresh project.
 * - A gateway (`McpModule.proxy()` of the reference server-everything, `McpModule.fromOpenApi()` of a document with
 *   `$ref`s, `RedisTaskQueue` on a real redis-server) tested under docs/testing.md's jest set-up, file for file:
 *   no transform for node_modules, no
 *   --experimental-vm-modules. `import()` in dist/ failed there ("A dynamic import callback was invoked without
 *   --experimental-vm-modules"); ESM-only peers went through Node's private `Module._load`.
 * - The docs' first server bundled by esbuild with `--bundle --platform=node` and no `--external`: optional peers
 *   required literally from modules the root entry reaches failed the build (`Could not resolve "oidc-provider"`).
 */
jest.setTimeout(300_000);

let scratch: string;
let tarball: string;
beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-loader-'));
  tarball = await pack(scratch);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The gateway's spec, as a user writes it: the remote started with no download, a local API with a `$ref`ed schema. */
const gatewaySpec = `import 'reflect-metadata';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { McpModule, Module } from 'mcp-reflect';
import { RedisTaskQueue } from 'mcp-reflect/redis';
import { createTestClient } from 'mcp-reflect/testing';

let api: Server;
let baseUrl: string;
beforeAll(async () => {
  api = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ id: Number(req.url!.split('/').pop()), name: 'Rex' }));
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  baseUrl = \`http://127.0.0.1:\${(api.address() as AddressInfo).port}\`;
});
afterAll(() => new Promise((resolve) => api.close(resolve)));

it('serves a proxied MCP server and an OpenAPI API', async () => {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'gateway', version: '1.0.0' }),
      // The reference server, started from its installed bin (no npx download at each start).
      McpModule.proxy({ namespace: 'ev', stdio: { command: process.execPath, args: [process.env.EVERYTHING!, 'stdio'] } }),
      McpModule.fromOpenApi({ namespace: 'pets', document: path.join(__dirname, 'pets.openapi.json'), baseUrl }),
    ],
  })
  class GatewayModule {}

  const client = await createTestClient(GatewayModule);
  try {
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('ev_get-sum');
    const getPet = (await client.listTools()).tools.find((tool) => tool.name === 'pets_getPet');
    expect(getPet?.inputSchema).toMatchObject({ properties: { petId: { type: 'integer' } }, required: ['petId'] });
    const sum = await client.callTool({ name: 'ev_get-sum', arguments: { a: 20, b: 22 } });
    expect(sum.content).toEqual([{ type: 'text', text: 'The sum of 20 and 22 is 42.' }]);
    const pet = await client.callTool({ name: 'pets_getPet', arguments: { petId: 7 } });
    expect(JSON.stringify(pet.content)).toContain('Rex');
  } finally {
    await client.close();
  }
}, 60_000); // the remote's start and the first compilations take more than jest's default 5 s

it('admits a run to the durable queue (RedisTaskQueue loads bullmq)', async () => {
  const queue = new RedisTaskQueue({ connection: { host: '127.0.0.1', port: Number(process.env.REDIS_PORT), maxRetriesPerRequest: 1 } });
  try {
    await queue.admit('report', 'task-1');
    await queue.release('report', 'task-1');
  } finally {
    await queue.close();
  }
}, 60_000);
`;

/**
 * A Nest application's durable queue as docs/nestjs.md ("An init that fails") and docs/tasks.md (Workers) give it:
 * a worker-only application booted with createApplicationContext() takes runs once McpService.work() is called; a
 * serving one (`worker: false`) enqueues them.
 */
const nestWorkerSpec = `import 'reflect-metadata';
import { expect, it } from '@jest/globals';
import { Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Redis } from 'ioredis';
import { Param, Tool } from 'mcp-reflect/common';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { RedisTaskQueue, RedisTaskStore } from 'mcp-reflect/redis';
import { createTestClient, taskCalls } from 'mcp-reflect/testing';

const port = Number(process.env.REDIS_PORT);

function reportsModule(who: string, worker: boolean) {
  @Injectable()
  class Reports {
    @Tool({ task: 'optional' })
    report(@Param() year: number): string {
      return \`report \${year} by \${who}\`;
    }
  }
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
  const queue = new RedisTaskQueue({ name: 'nest-reports', connection: { host: '127.0.0.1', port, maxRetriesPerRequest: null } });
  @Module({
    imports: [McpModule.forRoot({ name: 'reports', version: '1.0.0', http: false, tasks: { store: new RedisTaskStore(redis, { prefix: 'nest-reports:' }), queue, worker }, warnings: { unprovidedComponents: false } })],
    providers: [Reports],
  })
  class ReportsModule {}
  return { ReportsModule, redis };
}

it('a worker-only Nest application takes runs once McpService.work() is called', async () => {
  const worker = reportsModule('worker', true);
  const server = reportsModule('server', false);
  const context = await NestFactory.createApplicationContext(worker.ReportsModule, { logger: false });
  await context.get(McpService).work();
  const app = await NestFactory.createApplicationContext(server.ReportsModule, { logger: false });
  const client = await createTestClient(app.get(McpService).application);
  try {
    const tasks = taskCalls(client);
    const outcome = await tasks.call({ name: 'report', arguments: { year: 2026 } });
    if (!('task' in outcome)) throw new Error('no task: ' + JSON.stringify(outcome));
    const result = await tasks.result(outcome.task.taskId, { timeout: 20_000 });
    expect(result.content).toEqual([{ type: 'text', text: 'report 2026 by worker' }]);
  } finally {
    await client.close();
    await app.close();
    await context.close();
    await worker.redis.quit();
    await server.redis.quit();
  }
}, 60_000);
`;

/** A small OpenAPI 3.1 document whose response and parameter schemas are `$ref`s. */
const petsDocument = {
  openapi: '3.1.0',
  info: { title: 'Pets', version: '1.0.0' },
  paths: {
    '/pets/{petId}': {
      get: {
        operationId: 'getPet',
        description: 'One pet by its id',
        parameters: [{ $ref: '#/components/parameters/PetId' }],
        responses: { '200': { description: 'the pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } } },
      },
    },
  },
  components: {
    parameters: { PetId: { name: 'petId', in: 'path', required: true, schema: { $ref: '#/components/schemas/Id' } } },
    schemas: { Id: { type: 'integer', minimum: 1 }, Pet: { type: 'object', properties: { id: { $ref: '#/components/schemas/Id' }, name: { type: 'string' } } } },
  },
};

it("a gateway's jest specs (and a Nest worker's) pass under docs/testing.md's jest set-up, with no flags and no transform of node_modules", async () => {
  const dir = path.join(scratch, 'gateway');
  mkdirSync(dir);
  const { '.swcrc': swcrc, 'jest.config.js': jestConfig } = docFiles('testing.md', 'CommonJS');
  const documented = { '.swcrc': swcrc!, 'jest.config.js': jestConfig! };
  expect(documented['jest.config.js']).not.toMatch(/transformIgnorePatterns|experimental-vm-modules/);
  await makeProject(
    dir,
    tarball,
    {
      ...documented,
      'package.json': JSON.stringify({ name: 'gateway', version: '1.0.0', private: true, type: 'commonjs', scripts: { test: 'jest' } }, null, 2),
      'src/gateway.spec.ts': gatewaySpec,
      'src/nest-worker.spec.ts': nestWorkerSpec,
      'src/pets.openapi.json': JSON.stringify(petsDocument, null, 2),
    },
    [...basePackages, ...jestPackages, pinned('@apidevtools/json-schema-ref-parser'), pinned('bullmq'), pinned('ioredis'), pinned('@nestjs/common'), pinned('@nestjs/core'), pinned('rxjs')],
  );
  // `npm test`: plain `jest`, no NODE_OPTIONS.
  // A failure throws with jest's output ("A dynamic import callback was invoked without --experimental-vm-modules").
  const redis = await startRedis();
  try {
    await runAsync(process.execPath, [path.join(dir, 'node_modules', 'jest', 'bin', 'jest.js')], dir, { ...childEnv, EVERYTHING, REDIS_PORT: String(redis.port) });
  } finally {
    await redis.stop();
  }
  // (jest waits for open handles after a failure: runAsync bounds it at 300 s and reports its output.)
});

it("the docs' first server bundled by esbuild with no --external runs on Node, alone, and answers over stdio", async () => {
  const dir = path.join(scratch, 'bundle');
  mkdirSync(dir);
  await makeProject(dir, tarball, docFiles('setup.md', 'CommonJS'), [...basePackages, pinned('esbuild')]);
  await runAsync(process.execPath, [path.join(dir, 'node_modules', 'typescript', 'bin', 'tsc')], dir);
  const esbuild = path.join(dir, 'node_modules', 'esbuild', 'bin', 'esbuild');
  // A failure throws with esbuild's output (`Could not resolve "oidc-provider"`).
  await runAsync(esbuild, ['dist/main.js', '--bundle', '--platform=node', '--outfile=bundle/main.js', '--log-level=warning'], dir);
  // The bundle alone, in a folder without node_modules: every optional peer it does not use stays out of it.
  const alone = path.join(scratch, 'alone');
  mkdirSync(alone);
  copyFileSync(path.join(dir, 'bundle', 'main.js'), path.join(alone, 'main.js'));
  const bundle = readFileSync(path.join(alone, 'main.js'), 'utf8');
  for (const peer of ['oidc-provider', 'openid-client', 'bullmq', 'json-schema-ref-parser']) expect(bundle).not.toContain(`node_modules/${peer}/`);
  const client = new Client({ name: 'loader-spec', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(alone, 'main.js')], cwd: alone, stderr: 'pipe' }));
  try {
    const result = await client.callTool({ name: 'convert', arguments: { amount: 100, from: 'EUR', to: 'USD' } });
    expect(result.content).toEqual([{ type: 'text', text: '117' }]);
  } finally {
    await client.close();
  }
});
