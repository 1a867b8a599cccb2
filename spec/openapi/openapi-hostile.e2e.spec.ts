import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpFactory, McpModule, Module } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { startPetApi, type RunningApi } from '../fixtures/openapi/pet-api';

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';
const logger = { error: () => undefined, warn: () => undefined };

/** Another origin on this machine: no request may ever reach it. */
async function startCanary(): Promise<{ origin: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server: Server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"caught":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const string = { type: 'string' };
const ok = { 200: { description: 'ok', content: { 'application/json': {} } } };

/** A document that names the canary as its server, and operations whose arguments a hostile caller fills. */
function document(canary: string, paths: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    openapi: '3.0.3',
    info: { title: 'Hostile', version: '1' },
    servers: [{ url: canary }],
    paths: {
      '/echo/{value}': {
        get: {
          operationId: 'echo',
          parameters: [
            { name: 'value', in: 'path', required: true, schema: string },
            { name: 'q', in: 'query', schema: string },
            { name: 'X-Trace', in: 'header', schema: string },
            { name: 'Host', in: 'header', schema: string },
          ],
          responses: ok,
        },
      },
      '/echo/styles/{label}/{matrix}': {
        get: {
          operationId: 'styles',
          parameters: [
            { name: 'label', in: 'path', required: true, style: 'label', schema: { type: 'array', items: string } },
            { name: 'matrix', in: 'path', required: true, style: 'matrix', explode: true, schema: { type: 'array', items: string } },
            { name: 'filter', in: 'query', style: 'deepObject', explode: true, schema: { type: 'object', properties: { kind: string, age: { type: 'integer' } } } },
            { name: 'ids', in: 'query', style: 'pipeDelimited', explode: false, schema: { type: 'array', items: { type: 'integer' } } },
            { name: 'words', in: 'query', explode: false, schema: { type: 'array', items: string } },
            { name: 'where', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } },
          ],
          responses: ok,
        },
      },
      '/redirect': { get: { operationId: 'redirect', responses: ok } },
      ...paths,
    },
  };
}

describe('McpModule.fromOpenApi() with hostile arguments and hostile documents: no request leaves baseUrl', () => {
  let api: RunningApi;
  let canary: Awaited<ReturnType<typeof startCanary>>;
  let client: TestClient | undefined;
  const gateway = (doc: Record<string, unknown>) => {
    @Module({
      imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.fromOpenApi({ namespace: 'h', document: doc, baseUrl: `${api.origin}/api` })],
    })
    class Gateway {}
    return Gateway;
  };
  beforeAll(async () => {
    canary = await startCanary();
    api = await startPetApi({ redirectTo: `${canary.origin}/stolen` });
  });
  afterAll(async () => {
    await api.close();
    await canary.close();
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
    api.received.length = 0;
  });

  it('refuses path parameters that are, or decode to, dot segments; sends every other value encoded inside its one segment', async () => {
    client = await createTestClient(gateway(document(canary.origin)));
    const port = new URL(canary.origin).port;
    const refused = ['..', '.', '../admin', '../../etc/passwd', '%2e%2e', '%2E%2E%2Fadmin', '%252e%252e%252fadmin', 'a/../../b', '..\\..\\x', 'a/./b', ''];
    for (const value of refused) {
      const result = await client.callTool({ name: 'h_echo', arguments: { value } });
      expect({ value, text: text(result) }).toEqual({
        value,
        text: `Invalid arguments for tool h_echo: value: ${value === '' ? 'an empty path parameter would change the path' : "a path parameter cannot be '.' or '..', or hold a '.' or '..' segment (even percent-encoded)"}`,
      });
    }
    expect(api.received).toEqual([]);
    const sent = [`http://127.0.0.1:${port}/x`, `//127.0.0.1:${port}/x`, `@127.0.0.1:${port}`, `x@127.0.0.1:${port}/y`, '?admin=1', '#frag', 'a/b', '...', 'a%00b', 'café', 'a b'];
    for (const value of sent) {
      const result = await client.callTool({ name: 'h_echo', arguments: { value } });
      expect(result.structuredContent).toMatchObject({ target: `/api/echo/${encodeURIComponent(value)}` });
    }
    expect(api.received.map((r) => r.target)).toEqual(sent.map((value) => `/api/echo/${encodeURIComponent(value)}`));
    expect(canary.hits).toEqual([]);
  });

  it('refuses header values with CR, LF or NUL (header injection); a query value with them is only ever encoded; Host is not a parameter', async () => {
    client = await createTestClient(gateway(document(canary.origin)));
    for (const header of ['a\r\nX-Injected: 1', 'a\nb', 'a\0b', 'a\rb']) {
      expect(text(await client.callTool({ name: 'h_echo', arguments: { value: 'v', 'X-Trace': header } }))).toBe(
        'Invalid arguments for tool h_echo: X-Trace: the header value contains CR, LF or NUL, which could inject another header',
      );
    }
    expect(api.received).toEqual([]);
    // A Host header parameter is not served (it would say where the request goes).
    const echo = (await client.listTools()).tools.find((t) => t.name === 'h_echo')!;
    expect(Object.keys(echo.inputSchema.properties ?? {})).toEqual(['value', 'q', 'X-Trace']);
    const result = await client.callTool({ name: 'h_echo', arguments: { value: 'v', q: 'a\r\nHost: evil', 'X-Trace': 'trace-1', Host: 'evil.example' } });
    expect(result.structuredContent).toMatchObject({ target: '/api/echo/v?q=a%0D%0AHost%3A%20evil', headers: { 'x-trace': 'trace-1', host: new URL(api.origin).host } });
    expect(canary.hits).toEqual([]);
  });

  it('serializes parameters in their style (label, matrix, deepObject, pipeDelimited, form, JSON content), values encoded', async () => {
    client = await createTestClient(gateway(document(canary.origin)));
    const result = await client.callTool({
      name: 'h_styles',
      arguments: { label: ['a', 'b/c'], matrix: ['x', 'y'], filter: { kind: 'dog', age: 3 }, ids: [1, 2], words: ['one two', 'three'], where: { a: 1 } },
    });
    expect(result.structuredContent).toMatchObject({
      target: '/api/echo/styles/.a,b%2Fc/;matrix=x;matrix=y?filter%5Bkind%5D=dog&filter%5Bage%5D=3&ids=1%7C2&words=one%20two,three&where=%7B%22a%22%3A1%7D',
    });
  });

  it('does not follow a redirect: the API may point elsewhere, the request stays where it was', async () => {
    client = await createTestClient(gateway(document(canary.origin)));
    expect(text(await client.callTool({ name: 'h_redirect', arguments: {} }))).toBe(
      "GET /redirect answered with a redirect (HTTP 302), which is not followed: a request never leaves the API's base URL",
    );
    expect(api.received.map((r) => r.target)).toEqual(['/api/redirect']);
    expect(canary.hits).toEqual([]);
  });

  it('refuses, at bootstrap, a document whose paths could leave baseUrl: absolute URLs, //host, @host, dot segments, backslashes, queries', async () => {
    const port = new URL(canary.origin).port;
    const paths = [`http://127.0.0.1:${port}/x`, `//127.0.0.1:${port}/x`, `@127.0.0.1:${port}/x`, '/../admin', '/%2e%2e/admin', '/a/%2E/b', '/a\\..\\b', '/x?to=http://evil', '/x#y'];
    for (const path of paths) {
      const error = await McpFactory.create(gateway(document(canary.origin, { [path]: { get: { responses: ok } } }))).catch((e: unknown) => e);
      expect({ path, code: (error as { code?: string }).code }).toEqual({ path, code: 'INVALID_OPENAPI_DOCUMENT' });
      expect((error as Error).message).toContain(`the path '${path}'`);
    }
    const error = await McpFactory.create(gateway(document(canary.origin, { '/../admin': { get: { responses: ok } } }))).catch((e: unknown) => e as Error);
    expect((error as Error).message).toBe(
      "Cannot serve the OpenAPI document 'Hostile' 1 (an object) (McpModule.fromOpenApi({ namespace: 'h' })): at #/paths/~1..~1admin (GET /../admin), the path '/../admin' has the segment '..', so requests to it could leave the base URL.\n" +
        'Fix: correct the path, or exclude it: exclude: { paths: ["/../admin"] }.',
    );
    // Excluded, the rest of the document is served.
    @Module({
      imports: [
        McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }),
        McpModule.fromOpenApi({ namespace: 'h', document: document(canary.origin, { '/../admin': { get: { responses: ok } } }), baseUrl: `${api.origin}/api`, exclude: { paths: ['/../admin'] } }),
      ],
    })
    class Excluded {}
    const app = await McpFactory.create(Excluded);
    expect(app.inspect().tools.map((t) => t.name)).toEqual(['h_echo', 'h_styles', 'h_redirect']);
    await app.close();
    expect(canary.hits).toEqual([]);
  });

  it("keeps the document's media types out of the headers unless they are media types", async () => {
    const odd = {
      get: { operationId: 'odd', responses: { 200: { description: 'ok', content: { 'application/json\r\nx-injected: 1': {}, 'text/plain': {} } } } },
      post: { operationId: 'oddBody', requestBody: { content: { 'text/plain\r\nx-injected: 1': {} } }, responses: ok },
    };
    const error = await McpFactory.create(gateway(document(canary.origin, { '/echo/odd': odd }))).catch((e: unknown) => e as Error);
    expect((error as Error).message).toMatch(/at #\/paths\/~1echo~1odd\/post\/requestBody\/content \(POST \/echo\/odd\), the request body's media type "text\/plain\\r\\nx-injected: 1" is not a media type/);
    @Module({
      imports: [
        McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }),
        McpModule.fromOpenApi({ namespace: 'h', document: document(canary.origin, { '/echo/odd': { get: odd.get } }), baseUrl: `${api.origin}/api`, include: { operationIds: ['odd'] } }),
      ],
    })
    class Odd {}
    client = await createTestClient(Odd);
    await client.callTool({ name: 'h_odd', arguments: {} });
    expect(api.received[0].headers).toMatchObject({ accept: 'text/plain, */*;q=0.1' });
    expect(api.received[0].headers['x-injected']).toBeUndefined();
  });

  it('never fetches a $ref outside the document: one that points elsewhere fails the bootstrap naming it', async () => {
    const external = { get: { operationId: 'ext', responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: `${canary.origin}/schema.json` } } } } } } };
    const error = await McpFactory.create(gateway(document(canary.origin, { '/ext': external }))).catch((e: unknown) => e as Error);
    expect((error as Error).message).toBe(
      `Cannot serve the OpenAPI document 'Hostile' 1 (an object) (McpModule.fromOpenApi({ namespace: 'h' })): at #/paths/~1ext/get/responses/200/content/application~1json/schema (GET /ext), the $ref '${canary.origin}/schema.json' points outside the document, and only references inside it are resolved.\n` +
        'Fix: bundle the document into one file first (e.g. `npx @redocly/cli bundle openapi.yaml -o bundled.json`), so that every $ref is internal.',
    );
    expect(canary.hits).toEqual([]);
  });
});
