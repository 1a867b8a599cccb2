import 'reflect-metadata';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { ValidationPipe, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../samples/nest/app.module';

const root = path.resolve(__dirname, '..', '..');
const text = (result: unknown) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text;

/** samples/nest: a Nest application whose REST controller and MCP tools share one service, guard and DTO. */
describe('the Nest sample', () => {
  describe('over stdio, from an application context', () => {
    let client: Client;
    beforeAll(async () => {
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: ['-r', './spec/support/register.js', 'samples/nest/main.ts', '--stdio'],
        cwd: root,
        stderr: 'pipe',
        env: { ...process.env, NODE_OPTIONS: '' } as Record<string, string>,
      });
      client = new Client({ name: 'nest-sample-spec', version: '1.0.0' });
      await client.connect(transport);
    }, 120_000);
    afterAll(() => client.close());

    it('serves the tools with schemas from the DTO, validation, Nest guards and HttpException messages', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['add_note', 'delete_note', 'find_notes', 'list_notes']);
      // Beside the DTO tool, a zod one (issue 42): its schema advertised, zod validating and applying its default.
      expect(tools.find((t) => t.name === 'find_notes')?.inputSchema).toEqual({
        type: 'object',
        properties: {
          text: { type: 'string', minLength: 2, description: 'Text to look for in titles and bodies' },
          limit: { type: 'integer', minimum: 1, maximum: 20, default: 5 },
        },
        required: ['text'],
      });
      expect(text(await client.callTool({ name: 'find_notes', arguments: { text: 'x' } }))).toBe(
        'Invalid arguments for tool find_notes: text: Too small: expected string to have >=2 characters',
      );
      expect(tools.find((t) => t.name === 'add_note')?.inputSchema).toMatchObject({
        properties: { title: { type: 'string', minLength: 1, maxLength: 80 }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['title', 'body'],
      });
      expect(JSON.parse(text(await client.callTool({ name: 'add_note', arguments: { title: 'Milk', body: 'Buy milk', tags: ['shop'] } }))!)).toMatchObject({ id: 1, title: 'Milk' });
      expect(await client.callTool({ name: 'add_note', arguments: { title: '', body: 'x' } })).toMatchObject({ isError: true });
      expect(JSON.parse(text(await client.callTool({ name: 'list_notes', arguments: { tag: 'shop' } }))!)).toHaveLength(1);
      expect(JSON.parse(text(await client.callTool({ name: 'find_notes', arguments: { text: 'MILK' } }))!)).toMatchObject([{ id: 1, title: 'Milk' }]);
      expect(text(await client.callTool({ name: 'delete_note', arguments: { id: 1 } }))).toBe('Deleted note 1');
      expect(await client.callTool({ name: 'delete_note', arguments: { id: 1 } })).toMatchObject({ isError: true, content: [{ text: 'There is no note 1' }] });
    });
  });

  describe('over HTTP, beside its REST API', () => {
    let app: INestApplication;
    let base: string;
    beforeAll(async () => {
      app = await NestFactory.create(AppModule, { logger: false, forceCloseConnections: true });
      app.useGlobalPipes(new ValidationPipe({ whitelist: true }));
      await app.listen(0, '127.0.0.1');
      base = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
    });
    afterAll(() => app.close());

    it('shares one store between the tools and the controller, and one roles guard', async () => {
      const client = new Client({ name: 'nest-sample-http', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
      await client.callTool({ name: 'add_note', arguments: { title: 'From MCP', body: 'written by a model' } });
      const rest = await fetch(`${base}/notes`);
      expect(await rest.json()).toEqual([expect.objectContaining({ title: 'From MCP' })]);
      const posted = await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'From REST', body: 'typed by a person' }) });
      expect(posted.status).toBe(201);
      expect(JSON.parse(text(await client.callTool({ name: 'list_notes', arguments: {} }))!)).toHaveLength(2);
      // The zod tool through Nest's guard and interceptor: zod's default limit applied, its output passed on.
      expect(JSON.parse(text(await client.callTool({ name: 'find_notes', arguments: { text: 'from' } }))!).map((n: { title: string }) => n.title)).toEqual(['From MCP', 'From REST']);
      expect(JSON.parse(text(await client.callTool({ name: 'find_notes', arguments: { text: 'from', limit: 1 } }))!)).toHaveLength(1);
      // Without the notes:admin scope, delete_note is neither listed nor callable; REST refuses DELETE without the role.
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('delete_note');
      expect((await fetch(`${base}/notes/1`, { method: 'DELETE' })).status).toBe(403);
      expect((await fetch(`${base}/notes/1`, { method: 'DELETE', headers: { 'x-roles': 'notes:admin' } })).status).toBe(200);
      // Nest's ValidationPipe guards the REST body; the tool's arguments were validated by mcp-reflect from the same DTO.
      expect((await fetch(`${base}/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":""}' })).status).toBe(400);
      await client.close();
    });
  });
});
