import 'reflect-metadata';
import { ValidationPipe, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule, Module, type McpOpenApiOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { AppModule } from '../../samples/nest/app.module';
import { serveOpenApi } from '../../samples/nest/openapi';

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';

/**
 * samples/nest serves its REST API's OpenAPI document (written by @nestjs/swagger) at /openapi.json; an MCP
 * server reads it at bootstrap and serves the REST operations as tools that call that API.
 */
describe('McpModule.fromOpenApi() on the document @nestjs/swagger writes for samples/nest', () => {
  let nest: INestApplication;
  let base: string;
  let client: TestClient | undefined;
  const gateway = (options: Partial<McpOpenApiOptions> = {}) => {
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.fromOpenApi({ namespace: 'rest', document: `${base}/openapi.json`, baseUrl: base, ...options })] })
    class Gateway {}
    return Gateway;
  };
  beforeAll(async () => {
    nest = await NestFactory.create(AppModule, { logger: false, forceCloseConnections: true });
    nest.useGlobalPipes(new ValidationPipe({ whitelist: true }));
    serveOpenApi(nest);
    await nest.listen(0, '127.0.0.1');
    base = (await nest.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
  });
  afterAll(() => nest.close());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('serves the REST operations as tools, with the schemas of the DTOs', async () => {
    client = await createTestClient(gateway());
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['rest_listNotes', 'rest_addNote', 'rest_deleteNote']);
    const note = {
      type: 'object',
      properties: { id: { type: 'integer' }, title: { type: 'string' }, body: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } },
      required: ['id', 'title', 'body', 'tags'],
    };
    expect(tools[1]).toEqual({
      name: 'rest_addNote',
      title: 'Adds a note',
      description: 'Adds a note',
      inputSchema: {
        type: 'object',
        properties: {
          body: {
            type: 'object',
            properties: {
              title: { type: 'string', description: 'A short title', minLength: 1, maxLength: 80 },
              body: { type: 'string', description: 'The text of the note', maxLength: 10_000 },
              tags: { type: 'array', description: 'Tags to find it by', items: { type: 'string' } },
            },
            required: ['title', 'body'],
          },
        },
        required: ['body'],
        additionalProperties: false,
      },
      outputSchema: note,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    });
    expect(tools[0].outputSchema).toEqual({ type: 'object', properties: { result: { type: 'array', items: note } }, required: ['result'] });
    expect(tools[2].inputSchema).toEqual({ type: 'object', properties: { id: { type: 'integer' } }, required: ['id'], additionalProperties: false });
  });

  it("calls the Nest REST API: the same store as its REST clients, behind its own guard", async () => {
    client = await createTestClient(gateway());
    const added = await client.callTool({ name: 'rest_addNote', arguments: { body: { title: 'From OpenAPI', body: 'added through REST by a tool', tags: ['mcp'] } } });
    expect(added.structuredContent).toEqual({ id: 1, title: 'From OpenAPI', body: 'added through REST by a tool', tags: ['mcp'] });
    expect(await (await fetch(`${base}/notes?tag=mcp`)).json()).toEqual([added.structuredContent]);
    expect((await client.callTool({ name: 'rest_listNotes', arguments: { tag: 'mcp' } })).structuredContent).toEqual({ result: [added.structuredContent] });
    // The controller's RolesGuard wants the x-roles header, which this server does not send.
    expect(text(await client.callTool({ name: 'rest_deleteNote', arguments: { id: 1 } }))).toBe(
      'DELETE /notes/1 answered HTTP 403 Forbidden: the API does not allow this to the credentials this server sends (or it is rate limiting)\n{"message":"Forbidden resource","error":"Forbidden","statusCode":403}',
    );
    await client.close();
    // A server configured with the role sends it with every request.
    client = await createTestClient(gateway({ headers: { 'x-roles': 'notes:admin' } }));
    expect(text(await client.callTool({ name: 'rest_deleteNote', arguments: { id: 1 } }))).toBe('DELETE /notes/1 answered HTTP 200');
    expect(await (await fetch(`${base}/notes`)).json()).toEqual([]);
  });
});
