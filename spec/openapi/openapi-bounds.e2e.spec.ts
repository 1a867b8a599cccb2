import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { BootstrapError, McpFactory, McpModule, Module, type McpOpenApiOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { startServerProcess } from '../support/server-process';
import { startPetApi, type RunningApi } from '../fixtures/openapi/pet-api';

/** Issue 38, item 13: a 5 KB OpenAPI document must not OOM or hang the bootstrap, nor its patterns every client. */

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';

/** A $ref DAG `levels` deep, each level referencing the next twice: 2^levels schemas once written out. */
function dagDocument(levels: number): string {
  const schemas: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    schemas[`L${i}`] = i === levels - 1 ? { type: 'string' } : { type: 'object', properties: { a: { $ref: `#/components/schemas/L${i + 1}` }, b: { $ref: `#/components/schemas/L${i + 1}` } } };
  }
  return JSON.stringify({
    openapi: '3.0.3',
    info: { title: 'DAG', version: '1' },
    paths: { '/x': { post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: { $ref: '#/components/schemas/L0' } } } }, responses: { 200: { description: 'ok' } } } } },
    components: { schemas },
  });
}

/** A YAML alias bomb in `enum` and `default`: 10^9 strings once written out, under 1 KB written. */
function bombDocument(): string {
  const lines = ['openapi: 3.0.3', 'info: {title: Bomb, version: "1"}', 'x-bomb:', '  a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
  for (let i = 1; i < 9; i++) lines.push(`  a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(', ')}]`);
  lines.push('paths:', '  /x:', '    get:', '      operationId: x', '      parameters:', '        - {name: q, in: query, schema: {type: array, default: *a8, enum: [*a8]}}', "      responses: {'200': {description: ok}}");
  return lines.join('\n');
}

/** A loop of $refs that only point at one another. */
const loopDocument = [
  'openapi: 3.1.0',
  'info: {title: Loop, version: "1"}',
  'paths:',
  '  /x:',
  '    post:',
  '      operationId: x',
  "      requestBody: {content: {application/json: {schema: {$ref: '#/components/schemas/A'}}}}",
  "      responses: {'200': {description: ok}}",
  'components:',
  '  schemas:',
  "    A: {$ref: '#/components/schemas/B'}",
  "    B: {$ref: '#/components/schemas/A'}",
].join('\n');

/** Serves documents (YAML and JSON text) on 127.0.0.1. */
async function serveDocuments(documents: Record<string, string>): Promise<{ origin: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const body = documents[req.url ?? ''];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': req.url!.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const header = (document: string) => `Cannot serve the OpenAPI document ${document} (McpModule.fromOpenApi({ namespace: 'api' })): `;
const tooBig = (at: string) =>
  `at ${at}, the schema expands to more than 100000 nodes (schemas and values) once every shared part is written out where it is used.\n` +
  'Fix: simplify the schema, or exclude the operation (exclude: { operationIds: [...] }).';
const loopMessage =
  "at #/paths/~1x/post/requestBody/content/application~1json/schema (POST /x), the $ref there leads to a loop of $refs that point only at one another (#/components/schemas/A → #/components/schemas/B → #/components/schemas/A), which names nothing.\n" +
  'Fix: make one of them the schema (or object) it stands for, or exclude the operation (exclude: { operationIds: [...] }).';

describe('McpModule.fromOpenApi(): hostile documents at bootstrap (issue 38, 13)', () => {
  let documents: Awaited<ReturnType<typeof serveDocuments>>;
  beforeAll(async () => {
    documents = await serveDocuments({ '/dag.json': dagDocument(40), '/bomb.yaml': bombDocument(), '/loop.yaml': loopDocument });
  });
  afterAll(() => documents.close());

  it('a 160 MB server process survives a $ref DAG 40 levels deep, a YAML alias bomb and a $ref loop: each fails its bootstrap at once, naming why, and the process goes on serving', async () => {
    expect(dagDocument(40).length).toBeLessThan(5 * 1024);
    expect(bombDocument().length).toBeLessThan(1024);
    const urls = ['/dag.json', '/bomb.yaml', '/loop.yaml'].map((path) => `${documents.origin}${path}`);
    const server = await startServerProcess('openapi/openapi-bootstrap-app.ts', 160, { OPENAPI_DOCUMENTS: JSON.stringify(urls) });
    const client = new Client({ name: 'another-client', version: '1.0.0' });
    try {
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const outcomes = JSON.parse(text(await client.callTool({ name: 'outcomes', arguments: {} }))) as { code?: string; message?: string; ms: number }[];
      expect(outcomes.map(({ code, message }) => ({ code, message }))).toEqual([
        { code: 'INVALID_OPENAPI_DOCUMENT', message: header(urls[0]) + tooBig('#/paths/~1x/post/requestBody/content/application~1json/schema (POST /x)') },
        { code: 'INVALID_OPENAPI_DOCUMENT', message: header(urls[1]) + tooBig('#/paths/~1x/get/parameters/0/schema (GET /x)') },
        { code: 'INVALID_OPENAPI_DOCUMENT', message: header(urls[2]) + loopMessage },
      ]);
      for (const { ms } of outcomes) expect(ms).toBeLessThan(5_000);
      expect(server.alive()).toBe(true);
      const { heap } = await server.memory();
      expect(heap).toBeLessThan(120 * 1024 * 1024);
    } finally {
      await client.close().catch(() => undefined);
      await server.stop();
    }
  }, 120_000);

  async function bootstrap(options: Partial<McpOpenApiOptions> & Pick<McpOpenApiOptions, 'document'>, warned: string[] = []): Promise<BootstrapError | undefined> {
    const logger = { error: (m: string) => void warned.push(m), warn: (m: string) => void warned.push(m) };
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.fromOpenApi({ namespace: 'api', baseUrl: 'http://127.0.0.1:9', ...options })] })
    class Gateway {}
    return McpFactory.create(Gateway).then(
      async (app) => void (await app.close()),
      (error: unknown) => error as BootstrapError,
    );
  }

  it('names a $ref that points at itself as such', async () => {
    const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
    const document = {
      openapi: '3.1.0',
      info: { title: 'Loop', version: '1' },
      paths: { '/x': { post: { operationId: 'x', requestBody: { content: { 'application/json': { schema: ref('A') } } }, responses: { 200: { description: 'ok' } } } } },
      components: { schemas: { A: ref('A') } },
    };
    const error = await bootstrap({ document });
    expect(error?.message).toBe(
      `${header("'Loop' 1 (an object)")}at #/paths/~1x/post/requestBody/content/application~1json/schema (POST /x), the $ref there leads to a $ref that points at itself (#/components/schemas/A), which names nothing.\n` +
        'Fix: make one of them the schema (or object) it stands for, or exclude the operation (exclude: { operationIds: [...] }).',
    );
  });

  it('counts the parameters a list shared by many operations (a YAML alias) gives each of them', async () => {
    const parameters = Array.from({ length: 200 }, (_, i) => `    - {name: q${i}, in: query, schema: {type: string}}`);
    const operations = Array.from({ length: 600 }, (_, i) => `  /r${i}: {get: {operationId: r${i}, parameters: *p, responses: {'200': {description: ok}}}}`);
    const yaml = ['openapi: 3.0.3', 'info: {title: Shared, version: "1"}', 'x-parameters: &p', ...parameters, 'paths:', ...operations].join('\n');
    const served = await serveDocuments({ '/shared.yaml': yaml });
    try {
      const error = await bootstrap({ document: `${served.origin}/shared.yaml` });
      expect(error?.message).toBe(
        `${header(`${served.origin}/shared.yaml`)}at #/paths/~1r500/get (GET /r500), the operations served so far declare more than 100000 parameters in all.\n` +
          'Fix: serve a part of the document (include: { tags: [...] }).',
      );
    } finally {
      await served.close();
    }
  }, 60_000);

  it('bounds the whole load by documentTimeout, converting the schemas included (not only reading the document)', async () => {
    // One recursive schema of 1,000 properties (one shared leaf), the same object in 600 operations: read and
    // resolved in a few ms, but each use is expanded anew (600,000 schemas in all, within the bounds on size).
    const leaf = { type: 'string' };
    const properties: Record<string, unknown> = { self: { $ref: '#/components/schemas/R' } };
    for (let i = 0; i < 1_000; i++) properties[`p${i}`] = leaf;
    const R = { type: 'object', properties };
    const paths: Record<string, unknown> = {};
    for (let i = 0; i < 600; i++) {
      paths[`/r${i}`] = { post: { operationId: `r${i}`, requestBody: { content: { 'application/json': { schema: R } } }, responses: { 200: { description: 'ok' } } } };
    }
    const document = { openapi: '3.0.3', info: { title: 'Slow', version: '1' }, paths, components: { schemas: { R } } };
    const started = Date.now();
    const error = await bootstrap({ document, documentTimeout: 300, outputSchemas: false });
    // Whichever step the clock runs out in (on a loaded machine, reading or resolving may be slow too), the load stops there.
    expect(error?.message).toMatch(
      /^Cannot serve the OpenAPI document 'Slow' 1 \(an object\) \(McpModule\.fromOpenApi\(\{ namespace: 'api' \}\)\): (at #\/paths\/~1r\d+\/post\/requestBody\/content\/application~1json\/schema \(POST \/r\d+\), reading and converting|reading and resolving|resolving its \$refs) it took longer than documentTimeout \(300 ms\)\.\nFix: raise documentTimeout, or (serve a part of the document \(include: \{ tags: \[\.\.\.\] \}\)|give a smaller document)\.$/,
    );
    expect(Date.now() - started).toBeLessThan(3_000);
  }, 60_000);
});

describe('McpModule.fromOpenApi(): what a caller can make the gateway run or send (issue 38, 13)', () => {
  let api: RunningApi;
  let documents: Awaited<ReturnType<typeof serveDocuments>>;
  let client: TestClient | undefined;
  const warned: string[] = [];
  const logger = { error: (m: string) => void warned.push(m), warn: (m: string) => void warned.push(m) };
  const yaml = [
    'openapi: 3.0.3',
    'info: {title: Echo, version: "1"}',
    'paths:',
    '  /echo/code:',
    '    get:',
    '      operationId: code',
    '      parameters:',
    "        - {name: code, in: query, required: true, schema: {type: string, pattern: '^(a+)+$'}}",
    "        - {name: slug, in: query, schema: {type: string, pattern: '^[a-z]+(?:-[a-z]+)*$'}}",
    "      responses: {'200': {description: ok, content: {application/json: {}}}}",
    '  /echo/search:',
    '    get:',
    '      operationId: search',
    '      parameters:',
    '        - {name: filter, in: query, style: form, explode: true, schema: {type: object, properties: {kind: {type: string}, age: {type: integer}}}}',
    '        - {name: deep, in: query, style: deepObject, explode: true, schema: {type: object, properties: {kind: {type: string}}}}',
    '        - {name: token, in: query, schema: {type: string}}',
    '        - {name: X-Forwarded-For, in: header, schema: {type: string}}',
    '        - {name: x-forwarded-host, in: header, schema: {type: string}}',
    '        - {name: X-Real-IP, in: header, schema: {type: string}}',
    '        - {name: x-http-method-override, in: header, schema: {type: string}}',
    '        - {name: X-Trace, in: header, schema: {type: string}}',
    "      responses: {'200': {description: ok, content: {application/json: {}}}}",
  ].join('\n');

  beforeAll(async () => {
    api = await startPetApi();
    documents = await serveDocuments({ '/echo.yaml': yaml });
    @Module({
      imports: [
        McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }),
        McpModule.fromOpenApi({
          namespace: 'api',
          document: `${documents.origin}/echo.yaml`,
          baseUrl: `${api.origin}/api`,
          transforms: { tools: { search: { args: { token: { hide: { value: 'server-secret' } } } } } },
        }),
      ],
    })
    class Gateway {}
    client = await createTestClient(Gateway);
  });
  afterAll(async () => {
    await client?.close();
    await api.close();
    await documents.close();
  });
  afterEach(() => void (api.received.length = 0));

  it('leaves out a pattern that backtracks catastrophically (logged): a hostile value is answered at once, and another client with it', async () => {
    const { tools } = await client!.listTools();
    const code = tools.find((t) => t.name === 'api_code')!;
    expect(code.inputSchema.properties).toEqual({ code: { type: 'string' }, slug: { type: 'string', pattern: '^[a-z]+(?:-[a-z]+)*$' } });
    expect(warned).toContainEqual(
      `The OpenAPI document ${documents.origin}/echo.yaml (namespace 'api'): 5 parts of operations left out, which are never sent or run: ` +
        "GET /echo/search: the header parameter 'X-Forwarded-For' (never sent: it would tell the API who is calling or what is asked, which only a proxy may say); " +
        "GET /echo/search: the header parameter 'x-forwarded-host' (never sent: it would tell the API who is calling or what is asked, which only a proxy may say); " +
        "GET /echo/search: the header parameter 'X-Real-IP' (never sent: it would tell the API who is calling or what is asked, which only a proxy may say); " +
        "GET /echo/search: the header parameter 'x-http-method-override' (never sent: it would tell the API who is calling or what is asked, which only a proxy may say); " +
        'GET /echo/code: the pattern "^(a+)+$" (a repeated group holds another repetition (as (a+)+ does), which can take exponential time to match) at #/paths/~1echo~1code/get/parameters/0/schema/pattern.',
    );
    const hostile = `${'a'.repeat(28)}!`;
    const started = Date.now();
    const [answer, other] = await Promise.all([client!.callTool({ name: 'api_code', arguments: { code: hostile } }), client!.callTool({ name: 'api_code', arguments: { code: 'ok', slug: 'a-b' } })]);
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(answer.structuredContent).toMatchObject({ target: `/api/echo/code?code=${'a'.repeat(28)}!` });
    expect(other.structuredContent).toMatchObject({ target: '/api/echo/code?code=ok&slug=a-b' });
    // A safe pattern is still checked.
    expect(text(await client!.callTool({ name: 'api_code', arguments: { code: 'ok', slug: 'A' } }))).toBe('Invalid arguments for tool api_code: slug: must match the pattern ^[a-z]+(?:-[a-z]+)*$');
  });

  it('sends only the declared properties of an exploded query object: no added query name, not even one a transform hides', async () => {
    const sent = await client!.callTool({ name: 'api_search', arguments: { filter: { kind: 'dog', age: 3 }, deep: { kind: 'cat' } } });
    expect(sent.structuredContent).toMatchObject({ target: '/api/echo/search?kind=dog&age=3&deep%5Bkind%5D=cat&token=server-secret' });
    for (const [argument, value, extra] of [
      ['filter', { kind: 'dog', token: 'stolen' }, 'token'],
      ['filter', { admin: 'true' }, 'admin'],
      ['deep', { kind: 'cat', role: 'admin' }, 'role'],
    ] as const) {
      expect(text(await client!.callTool({ name: 'api_search', arguments: { [argument]: value } }))).toBe(
        `Invalid arguments for tool api_search: ${argument}: "${extra}" is not a property of this parameter (each property is sent as its own query name, so only those its schema declares are sent: ${argument === 'filter' ? 'kind, age' : 'kind'})`,
      );
    }
    expect(api.received.map((r) => r.target)).toEqual(['/api/echo/search?kind=dog&age=3&deep%5Bkind%5D=cat&token=server-secret']);
  });

  it('never sends X-Forwarded-*, X-Real-IP or X-HTTP-Method-Override header parameters, whatever the caller gives', async () => {
    const { tools } = await client!.listTools();
    expect(Object.keys(tools.find((t) => t.name === 'api_search')!.inputSchema.properties ?? {})).toEqual(['filter', 'deep', 'X-Trace']);
    await client!.callTool({
      name: 'api_search',
      arguments: { 'X-Trace': 't-1', 'X-Forwarded-For': '10.0.0.1', 'x-forwarded-host': 'admin.internal', 'X-Real-IP': '10.0.0.1', 'x-http-method-override': 'DELETE' },
    });
    const headers = api.received.at(-1)?.headers ?? {};
    expect(headers['x-trace']).toBe('t-1');
    for (const name of ['x-forwarded-for', 'x-forwarded-host', 'x-real-ip', 'x-http-method-override']) expect(headers[name]).toBeUndefined();
  });
});
