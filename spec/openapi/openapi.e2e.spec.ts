import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020';
import {
  McpFactory,
  McpModule,
  Module,
  type CallHandler,
  type CanActivate,
  type ExecutionContext,
  type McpInterceptor,
  type McpOpenApiOptions,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { PHOTO, petDocument, startPetApi, type RunningApi } from '../fixtures/openapi/pet-api';

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';
const warned: string[] = [];
const logger = { error: (m: string) => void warned.push(m), warn: (m: string) => void warned.push(m) };

function app(options: Partial<McpOpenApiOptions>, extra: { guards?: never[]; interceptors?: never[] } = {}) {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never, ...extra }),
      McpModule.fromOpenApi({ namespace: 'pets', document: petDocument(), ...options } as McpOpenApiOptions),
    ],
  })
  class Gateway {}
  return Gateway;
}

describe('McpModule.fromOpenApi(): an HTTP API described by OpenAPI, served as tools and resources', () => {
  let api: RunningApi;
  let base: string;
  let client: TestClient | undefined;
  beforeAll(async () => {
    api = await startPetApi();
    base = `${api.origin}/api`;
  });
  afterAll(() => api.close());
  afterEach(async () => {
    await client?.close();
    client = undefined;
    api.received.length = 0;
    warned.length = 0;
  });

  it('serves each operation as a tool: input schema from its parameters and body, output schema from its 2xx answer, no $ref', async () => {
    client = await createTestClient(app({ baseUrl: base }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['pets_listPets', 'pets_createPet', 'pets_getPet', 'pets_deletePet', 'pets_petPhoto', 'pets_notes', 'pets_download', 'pets_tree']);
    const pet = { type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', format: 'int64', readOnly: true }, name: { type: 'string' }, tag: { type: ['string', 'null'] } } };
    expect(tools[0]).toEqual({
      name: 'pets_listPets',
      title: 'List the pets',
      description: 'List the pets',
      inputSchema: {
        type: 'object',
        properties: { limit: { type: 'integer', minimum: 1, maximum: 100 }, tags: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
      // An array answer: the output schema is an object schema, { result }.
      outputSchema: { type: 'object', properties: { result: { type: 'array', items: pet } }, required: ['result'] },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: true },
    });
    expect(tools[1]).toEqual({
      name: 'pets_createPet',
      title: 'Add a pet',
      description: 'Add a pet',
      // The body is `body`; the readOnly id is not asked for (nor required); `example` and `x-*` are left out.
      inputSchema: {
        type: 'object',
        properties: { body: { allOf: [{ type: 'object', required: ['name'], properties: { name: { type: 'string' }, tag: { type: ['string', 'null'] } } }] } },
        required: ['body'],
        additionalProperties: false,
      },
      outputSchema: pet,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    });
    expect(tools[2].inputSchema).toEqual({
      type: 'object',
      properties: { id: { type: 'integer', format: 'int64', description: 'The pet id' } },
      required: ['id'],
      additionalProperties: false,
    });
    // A recursive schema is cut where it recurs, with the permissive {}.
    expect(tools[7].outputSchema).toEqual({ type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: {} } } });
    // Every schema is valid 2020-12 and holds no $ref a client would have to resolve.
    const ajv = new Ajv2020({ strict: false });
    for (const tool of tools) {
      expect(JSON.stringify(tool)).not.toContain('$ref');
      for (const schema of [tool.inputSchema, tool.outputSchema].filter(Boolean)) expect(ajv.validateSchema(schema as object)).toBe(true);
    }
  });

  it('calls the API: query parameters in their style, a JSON body, JSON answers as structuredContent (arrays as { result })', async () => {
    client = await createTestClient(app({ baseUrl: base }));
    const listed = await client.callTool({ name: 'pets_listPets', arguments: { tags: ['dog', 'cat'], limit: 5 } });
    expect(listed.structuredContent).toEqual({ result: [{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom', tag: 'cat' }] });
    expect(JSON.parse(text(listed))).toEqual([{ id: 1, name: 'Rex', tag: 'dog' }, { id: 2, name: 'Tom', tag: 'cat' }]);
    const created = await client.callTool({ name: 'pets_createPet', arguments: { body: { name: 'Fido', tag: 'dog' } } });
    expect(created.structuredContent).toEqual({ id: 3, name: 'Fido', tag: 'dog' });
    expect(await client.callTool({ name: 'pets_getPet', arguments: { id: 3 } })).toMatchObject({ structuredContent: { id: 3, name: 'Fido' } });
    expect(text(await client.callTool({ name: 'pets_deletePet', arguments: { id: 3 } }))).toBe('DELETE /pets/3 answered HTTP 204');
    expect(api.received.map((r) => `${r.method} ${r.target}`)).toEqual(['GET /api/pets?limit=5&tags=dog&tags=cat', 'POST /api/pets', 'GET /api/pets/3', 'DELETE /api/pets/3']);
    expect(api.received[1]).toMatchObject({ body: '{"name":"Fido","tag":"dog"}', headers: { 'content-type': 'application/json' } });
    expect(api.received[0].headers.accept).toBe('application/json, */*;q=0.1');
    // Arguments are validated against the advertised schema before anything is sent.
    expect(await client.callTool({ name: 'pets_getPet', arguments: { id: 'three' } })).toMatchObject({ isError: true, content: [{ text: 'Invalid arguments for tool pets_getPet: id: must be an integer' }] });
    expect(api.received).toHaveLength(4);
  });

  it('serves images, audio and other bytes as content blocks, text as text', async () => {
    client = await createTestClient(app({ baseUrl: base }));
    expect((await client.callTool({ name: 'pets_petPhoto', arguments: { id: 1 } })).content).toEqual([{ type: 'image', data: PHOTO.toString('base64'), mimeType: 'image/png' }]);
    expect((await client.callTool({ name: 'pets_notes', arguments: {} })).content).toEqual([{ type: 'text', text: 'feed them twice a day' }]);
    expect((await client.callTool({ name: 'pets_download', arguments: {} })).content).toEqual([
      { type: 'resource', resource: { uri: `${base}/file`, mimeType: 'application/pdf', blob: Buffer.from('%PDF-1.4 fake').toString('base64') } },
    ]);
  });

  it('serves the GETs the resources rule names as resources (no path parameter) and resource templates', async () => {
    client = await createTestClient(app({ baseUrl: base, resources: { tags: ['pets', 'media'] } }));
    expect((await client.listResources()).resources).toEqual([
      { name: 'pets_listPets', title: 'List the pets', description: 'List the pets', uri: 'openapi://pets/pets', mimeType: 'application/json' },
      { name: 'pets_notes', uri: 'openapi://pets/notes', mimeType: 'text/plain' },
      { name: 'pets_download', uri: 'openapi://pets/file', mimeType: 'application/pdf' },
    ]);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      { name: 'pets_getPet', title: 'Get a pet', description: 'Get a pet', uriTemplate: 'openapi://pets/pets/{id}', mimeType: 'application/json' },
      { name: 'pets_petPhoto', uriTemplate: 'openapi://pets/pets/{id}/photo', mimeType: 'image/png' },
    ]);
    // A GET with a required query parameter (none here), other methods and GETs the rule does not name stay tools.
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['pets_createPet', 'pets_deletePet', 'pets_tree']);
    expect(JSON.parse(((await client.readResource({ uri: 'openapi://pets/pets' })).contents[0] as { text: string }).text)).toHaveLength(2);
    expect(await client.readResource({ uri: 'openapi://pets/pets/2' })).toEqual({ contents: [{ uri: 'openapi://pets/pets/2', mimeType: 'application/json', text: '{"id":2,"name":"Tom","tag":"cat"}' }] });
    expect(await client.readResource({ uri: 'openapi://pets/pets/1/photo' })).toEqual({ contents: [{ uri: 'openapi://pets/pets/1/photo', mimeType: 'image/png', blob: PHOTO.toString('base64') }] });
    expect(await client.readResource({ uri: 'openapi://pets/notes' })).toEqual({ contents: [{ uri: 'openapi://pets/notes', mimeType: 'text/plain', text: 'feed them twice a day' }] });
    await expect(client.readResource({ uri: 'openapi://pets/pets/9' })).rejects.toThrow(/GET \/pets\/9 answered HTTP 404 Not Found: there is nothing at that address/);
  });

  it('answers a failed request with an actionable tool error: method, path, status, a hint and what the API said', async () => {
    client = await createTestClient(app({ baseUrl: base }));
    expect(text(await client.callTool({ name: 'pets_getPet', arguments: { id: 42 } }))).toBe(
      'GET /pets/42 answered HTTP 404 Not Found: there is nothing at that address; check the path arguments (a name or an identifier may be wrong)\n{"message":"no pet 42"}',
    );
    expect(await client.callTool({ name: 'pets_createPet', arguments: { body: {} } })).toMatchObject({ isError: true, content: [{ text: 'Invalid arguments for tool pets_createPet: body.name: is required' }] });
    expect(api.received).toHaveLength(1); // the invalid body never left
  });

  it('bounds every request: timeout, maxResponseBytes; a 429 says when to try again', async () => {
    const slowDocument = {
      openapi: '3.1.0',
      info: { title: 'bounds', version: '1' },
      paths: Object.fromEntries(['slow', 'huge', 'limited'].map((p) => [`/${p}`, { get: { operationId: p, responses: { 200: { description: 'ok' } } } }])),
    };
    client = await createTestClient(app({ baseUrl: base, document: slowDocument, timeout: 300, maxResponseBytes: 1024 * 1024 }));
    const started = Date.now();
    expect(text(await client.callTool({ name: 'pets_slow', arguments: {} }))).toBe('GET /slow did not answer within 300 ms: try again in a moment, or ask for less data at once');
    expect(Date.now() - started).toBeLessThan(1_800);
    expect(text(await client.callTool({ name: 'pets_huge', arguments: {} }))).toBe(
      'GET /huge answered with more than 1048576 bytes (maxResponseBytes): ask for less data at once (a smaller page, a filter)',
    );
    expect(text(await client.callTool({ name: 'pets_limited', arguments: {} }))).toBe('GET /limited answered HTTP 429 Too Many Requests: the API is rate limiting requests; try again later; try again in 30 s\n{"message":"slow down"}');
  });

  it('selects operations by tags, methods, paths (with * and **) and operationIds, and excludes by the same rules', async () => {
    const names = async (options: Partial<McpOpenApiOptions>) => {
      const built = await McpFactory.create(app({ baseUrl: base, ...options }));
      try {
        return built.inspect().tools.map((t) => t.name);
      } finally {
        await built.close();
      }
    };
    expect(await names({ include: { tags: ['pets'], methods: ['get'] } })).toEqual(['pets_listPets', 'pets_getPet']);
    expect(await names({ include: { paths: ['/pets/*'] } })).toEqual(['pets_getPet', 'pets_deletePet']);
    expect(await names({ include: { paths: ['/pets/**'] } })).toEqual(['pets_getPet', 'pets_deletePet', 'pets_petPhoto']);
    expect(await names({ include: [{ operationIds: ['tree'] }, { paths: [/^\/notes$/] }] })).toEqual(['pets_notes', 'pets_tree']);
    expect(await names({ exclude: [{ tags: ['media', 'admin'] }, { methods: ['POST'] }] })).toEqual(['pets_listPets', 'pets_getPet', 'pets_tree']);
  });

  it('reads the document from a YAML file and from a URL', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'openapi-'));
    try {
      const yaml = ['openapi: 3.1.0', 'info: { title: Notes, version: "1" }', 'paths:', '  /notes:', '    get:', '      operationId: notes', '      responses:', '        "200": { description: ok }', ''].join('\n');
      writeFileSync(path.join(dir, 'openapi.yaml'), yaml);
      client = await createTestClient(app({ baseUrl: base, document: path.join(dir, 'openapi.yaml') }));
      expect(text(await client.callTool({ name: 'pets_notes', arguments: {} }))).toBe('feed them twice a day');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    await client.close();
    client = await createTestClient(app({ baseUrl: base, document: `${api.origin}/openapi.json` }));
    expect((await client.listTools()).tools).toHaveLength(8);
    expect(api.received.map((r) => r.target)).toEqual(['/api/notes', '/openapi.json']);
  });

  it("sends the server's headers (fixed, computed from the Context, the caller's upstream token) and never the MCP access token", async () => {
    const options: Partial<McpOpenApiOptions> = {
      headers: (ctx) => ({ 'x-api-key': 'key-1', 'x-caller': ctx.auth?.subject ?? 'nobody' }),
      upstreamToken: (ctx) => (ctx.auth?.subject === 'ada' ? 'upstream-token-of-ada' : undefined),
    };
    client = await createTestClient(app({ baseUrl: base, ...options }), { auth: { subject: 'ada', token: 'the-mcp-access-token' } });
    await client.callTool({ name: 'pets_getPet', arguments: { id: 1 } });
    expect(api.received[0].headers).toMatchObject({ 'x-api-key': 'key-1', 'x-caller': 'ada', authorization: 'Bearer upstream-token-of-ada' });
    expect(JSON.stringify(api.received[0].headers)).not.toContain('the-mcp-access-token');
    await client.close();

    // A configuration that would pass the MCP token on fails the call, and sends nothing.
    const leaky = app({ baseUrl: base, upstreamToken: (ctx) => ctx.auth?.token });
    client = await createTestClient(leaky, { auth: { subject: 'ada', token: 'the-mcp-access-token' } });
    expect(text(await client.callTool({ name: 'pets_getPet', arguments: { id: 1 } }))).toBe(
      "Cannot call tool pets_getPet: the header 'authorization' would carry the caller's MCP access token to the API, which is never forwarded",
    );
    expect(api.received).toHaveLength(1);
    expect(warned).toEqual([expect.stringContaining("would carry the caller's MCP access token")]);
  });

  it('passes on the caller\'s HTTP headers named in forwardHeaders, and no other', async () => {
    const built = await McpFactory.create(app({ baseUrl: base, forwardHeaders: ['accept-language'], headers: { 'x-api-key': 'key-2' } }));
    await built.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    const http = new Client({ name: 'spec', version: '1.0.0' });
    try {
      await http.connect(new StreamableHTTPClientTransport(new URL(String(await built.getUrl())), { requestInit: { headers: { 'accept-language': 'fr', 'x-request-id': 'r-1' } } }));
      await http.callTool({ name: 'pets_getPet', arguments: { id: 2 } });
      const { headers } = api.received[0];
      expect(headers).toMatchObject({ 'accept-language': 'fr', 'x-api-key': 'key-2' });
      expect(Object.keys(headers).filter((h) => h.startsWith('mcp-') || h === 'x-request-id')).toEqual([]);
    } finally {
      await http.close();
      await built.close();
    }
  });

  it('runs through the one pipeline: a gateway guard hides a tool, an interceptor wraps every call, scopes apply', async () => {
    const seen: string[] = [];
    class NoTrees implements CanActivate {
      canActivate(context: ExecutionContext): boolean {
        return context.name !== 'pets_tree';
      }
    }
    class Audit implements McpInterceptor {
      async intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
        seen.push(context.name);
        return next.handle();
      }
    }
    const scopes = (operation: { method: string }) => (operation.method === 'GET' ? ['pets:read'] : ['pets:write']);
    client = await createTestClient(app({ baseUrl: base, scopes }, { guards: [NoTrees as never], interceptors: [Audit as never] }), { auth: { scopes: ['pets:read'] } });
    // Hidden: the writes (no pets:write scope) and the tree (the guard).
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['pets_listPets', 'pets_getPet', 'pets_petPhoto', 'pets_notes', 'pets_download']);
    await client.callTool({ name: 'pets_getPet', arguments: { id: 1 } });
    await expect(client.callTool({ name: 'pets_tree', arguments: {} })).rejects.toThrow(/pets_tree/);
    expect(text(await client.callTool({ name: 'pets_deletePet', arguments: { id: 1 } }))).toMatch(/^Insufficient scope: the tool 'pets_deletePet' needs the scope pets:write/);
    expect(seen).toEqual(['pets_getPet']);
    expect(api.received.map((r) => r.method)).toEqual(['GET']);
  });

  it('with several servers, is served by the one it names', async () => {
    @Module({})
    class PublicModule {}
    @Module({})
    class InternalModule {}
    @Module({
      imports: [
        McpModule.forRoot({ name: 'public', version: '1.0.0', modules: [PublicModule] }),
        McpModule.forRoot({ name: 'internal', version: '1.0.0', modules: [InternalModule] }),
        McpModule.fromOpenApi({ namespace: 'pets', server: 'internal', document: petDocument(), baseUrl: base, include: { operationIds: ['getPet'] } }),
      ],
    })
    class Servers {}
    const servers = await McpFactory.createServers(Servers);
    try {
      expect(servers.get('public').inspect().tools).toEqual([]);
      expect(servers.get('internal').inspect().tools.map((t) => t.name)).toEqual(['pets_getPet']);
    } finally {
      await servers.close();
    }
  });

  it('checks each answer against the output schema it advertises; outputSchemas: false advertises none and serves the answer as it is', async () => {
    const strict = petDocument();
    const node = (strict.components as { schemas: { Node: { properties: { name: { type: string } } } } }).schemas.Node;
    node.properties.name.type = 'integer'; // the API answers a string
    client = await createTestClient(app({ baseUrl: base, document: strict }));
    expect(await client.callTool({ name: 'pets_tree', arguments: {} })).toMatchObject({
      isError: true,
      content: [{ text: "Tool 'pets_tree' returned output that does not match its output schema: name: must be an integer" }],
    });
    await client.close();
    client = await createTestClient(app({ baseUrl: base, document: strict, outputSchemas: false }));
    const tree = (await client.listTools()).tools.find((t) => t.name === 'pets_tree')!;
    expect(tree.outputSchema).toBeUndefined();
    expect((await client.callTool({ name: 'pets_tree', arguments: {} })).structuredContent).toEqual({ name: 'root', children: [{ name: 'leaf', children: [] }] });
  });

  it('takes transforms keyed by the operations’ names: a renamed tool and argument, a hidden one, a disabled tool; an unknown name fails the bootstrap', async () => {
    const transforms = { tools: { getPet: { name: 'fetchPet', args: { id: { name: 'pet_id' } } }, listPets: { args: { limit: { hide: { value: 2 } } } }, deletePet: { enabled: false } } };
    client = await createTestClient(app({ baseUrl: base, transforms }));
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['pets_fetchPet', 'pets_listPets']));
    expect(names).not.toContain('pets_getPet');
    expect(names).not.toContain('pets_deletePet');
    const list = (await client.listTools()).tools.find((t) => t.name === 'pets_listPets')!;
    expect(Object.keys(list.inputSchema.properties ?? {})).toEqual(['tags']);
    await client.callTool({ name: 'pets_fetchPet', arguments: { pet_id: 3 } });
    expect(api.received.at(-1)?.target).toBe('/api/pets/3');
    await client.callTool({ name: 'pets_listPets', arguments: { limit: 50 } });
    expect(api.received.at(-1)?.target).toMatch(/limit=2\b/);
    await expect(McpFactory.create(app({ baseUrl: base, transforms: { tools: { getPets: { description: 'x' } } } }))).rejects.toThrow(
      /transforms\.tools names 'getPets', and no tool is declared under that name \(did you mean 'getPet'\?\)/,
    );
  });
});
