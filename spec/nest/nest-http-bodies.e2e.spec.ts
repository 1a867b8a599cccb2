import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Body, Controller, Module, Post, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Injectable as McpInjectable, McpFactory, McpModule as StandaloneMcpModule, Module as McpModuleDecorator, Param, Tool } from 'mcp-reflect';
import { McpModule } from 'mcp-reflect/nest';
import { GreetModule } from './fixtures';
import { JSON_AND_SSE, rawRequest } from '../support/http-helpers';

/**
 * Issue 38, 9: the endpoint's route reads its own bodies. The body parsers of the Nest application (Nest's, and a
 * raised `useBodyParser()` limit) never buffer them: a body past the endpoint's bounds (depth, objects and arrays,
 * batch size, bytes) gets the endpoint's JSON-RPC error, on Express and on Fastify, with the global prefix; the
 * application's other routes still get their parsed bodies.
 */
const MIB = 1024 * 1024;
type Platform = 'express' | 'fastify';

@Controller('echo')
class EchoController {
  @Post()
  echo(@Body() body: unknown): unknown {
    return { got: body };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'bodies', version: '1.0.0', http: { stateless: true }, warnings: { unprovidedComponents: false } }), GreetModule], controllers: [EchoController] })
class BodiesModule {}

async function listen(platform: Platform): Promise<{ app: INestApplication; base: string }> {
  // As the docs once advised: a body parser raised to 4 MiB (Express), a body limit of 8 MiB (Fastify).
  const app =
    platform === 'express'
      ? await NestFactory.create(BodiesModule, { logger: false, forceCloseConnections: true })
      : await NestFactory.create(BodiesModule, new FastifyAdapter({ forceCloseConnections: true, bodyLimit: 8 * MIB }), { logger: false });
  if (platform === 'express') (app as unknown as { useBodyParser(type: string, options: object): void }).useBodyParser('json', { limit: '8mb' });
  app.setGlobalPrefix('api');
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { app, base: `http://127.0.0.1:${port}` };
}

const call = (id: number, args: unknown) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'greet', arguments: args } });
const deep = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

describe.each<Platform>(['express', 'fastify'])('the endpoint route reads its own bodies (%s)', (platform) => {
  let app: INestApplication | undefined;
  let url: string;
  let base: string;
  beforeAll(async () => {
    ({ app, base } = await listen(platform));
    url = `${base}/api/mcp`;
  });
  afterAll(async () => {
    await app?.close();
  });

  const post = (body: string) => rawRequest(url, { headers: JSON_AND_SSE, body });

  it('refuses a body nested past maxJsonDepth with the endpoint error', async () => {
    const answer = await post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":${deep(100)}}}}`);
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: the body nests objects and arrays deeper than 64 levels.' }, id: null });
  });

  it('refuses a body of more than maxJsonContainers objects and arrays', async () => {
    const answer = await post(JSON.stringify(call(2, { name: 'x', extra: Array.from({ length: 150_000 }, () => ({})) })));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: the body holds more than 100000 objects and arrays.' }, id: null });
  });

  it('refuses a batch of more than maxBatchSize messages', async () => {
    const answer = await post(JSON.stringify(Array.from({ length: 101 }, (_, i) => call(i, { name: 'x' }))));
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32600, message: 'Invalid Request: a batch may hold at most 100 messages.' }, id: null });
  });

  it('refuses a body over maxRequestBodySize (4 MiB) with its own 413, though the framework would take 8 MiB', async () => {
    const answer = await post(JSON.stringify(call(3, { name: 'x'.repeat(5 * MIB) })));
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({ jsonrpc: '2.0', error: { code: -32000, message: 'Payload Too Large: the body is over 4194304 bytes.' }, id: null });
  });

  // Express routes case-insensitively and takes a trailing slash: those forms of the route are the endpoint's too,
  // so their bodies are not the JSON parser's (a body it read would be refused with Nest's 400, not JSON-RPC's -32700).
  if (platform === 'express') {
    it('reads the bodies of the route under every path Express routes to it (case, trailing slash, query)', async () => {
      for (const path of ['/api/mcp', '/API/Mcp/', '/api/mcp?x=1']) {
        const answer = await rawRequest(`${base}${path}`, { headers: JSON_AND_SSE, body: '{"jsonrpc":' });
        expect([path, answer.status, JSON.parse(answer.body)]).toEqual([path, 400, { jsonrpc: '2.0', error: { code: -32700, message: expect.stringContaining('Parse error') }, id: null }]);
      }
    });
  }

  it('still serves a client, and the other routes still get their parsed bodies', async () => {
    const client = new Client({ name: 'bodies-spec', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    expect(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada' }] });
    await client.close();
    const echoed = await rawRequest(`${base}/api/echo`, { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ big: 'y'.repeat(2 * MIB) }) });
    expect(echoed.status).toBe(201);
    expect((JSON.parse(echoed.body) as { got: { big: string } }).got.big).toHaveLength(2 * MIB);
  });
});

@McpInjectable()
class StandaloneGreet {
  @Tool()
  greet(@Param('name') name: string): string {
    return `Hello, ${name}`;
  }
}

@McpModuleDecorator({ imports: [StandaloneMcpModule.forRoot({ name: 'parsed', version: '1.0.0' })], providers: [StandaloneGreet] })
class GreetModuleStandalone {}

describe('a body parsed before the standalone handler (express.json())', () => {
  it('is held to the same bounds before anything reads it', async () => {
    const express = (await import('express')).default;
    const mcp = await McpFactory.create(GreetModuleStandalone);
    const web = express();
    web.use(express.json({ limit: '8mb' }));
    web.all('/mcp', mcp.createHttpHandler({ stateless: true }));
    const server = await new Promise<import('node:http').Server>((resolve) => {
      const s = web.listen(0, '127.0.0.1', () => resolve(s));
    });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
    const post = (body: string) => rawRequest(url, { headers: JSON_AND_SSE, body });
    try {
      const refusals = await Promise.all([
        post(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"greet","arguments":{"name":${deep(100)}}}}`),
        post(JSON.stringify(call(2, { name: 'x', extra: Array.from({ length: 150_000 }, () => ({})) }))),
        post(JSON.stringify(Array.from({ length: 101 }, (_, i) => call(i, { name: 'x' })))),
        post(JSON.stringify(call(3, { name: 'x'.repeat(5 * MIB) }))),
      ]);
      expect(refusals.map((answer) => [answer.status, (JSON.parse(answer.body) as { error: unknown }).error])).toEqual([
        [400, { code: -32600, message: 'Invalid Request: the body nests objects and arrays deeper than 64 levels.' }],
        [400, { code: -32600, message: 'Invalid Request: the body holds more than 100000 objects and arrays.' }],
        [400, { code: -32600, message: 'Invalid Request: a batch may hold at most 100 messages.' }],
        [413, { code: -32000, message: 'Payload Too Large: the body is over 4194304 bytes.' }],
      ]);
    } finally {
      await mcp.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
