import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BootstrapError, McpFactory, McpModule, Module, type McpOpenApiOptions } from 'mcp-reflect';
import { startPetApi, type RunningApi } from '../fixtures/openapi/pet-api';

const warned: string[] = [];
const logger = { error: (m: string) => void warned.push(m), warn: (m: string) => void warned.push(m) };

async function failure(options: McpOpenApiOptions): Promise<BootstrapError> {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.fromOpenApi(options)] })
  class Gateway {}
  const error = await McpFactory.create(Gateway).then(
    async (app) => {
      await app.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  if (!(error instanceof BootstrapError)) throw new Error(`expected a BootstrapError, got ${String(error)}`);
  return error;
}

const ok = { 200: { description: 'ok' } };
const doc = (paths: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ openapi: '3.1.0', info: { title: 'Broken', version: '1' }, paths, ...extra });
const header = (where: string) => `Cannot serve the OpenAPI document ${where} (McpModule.fromOpenApi({ namespace: 'api' })): `;

describe('McpModule.fromOpenApi(): options checked where the module is declared (INVALID_OPTION)', () => {
  const base = { namespace: 'api', document: doc({}), baseUrl: 'https://api.example.com' };
  const message = (options: unknown) => {
    try {
      McpModule.fromOpenApi(options as McpOpenApiOptions);
    } catch (error) {
      expect(error).toMatchObject({ code: 'INVALID_OPTION' });
      return (error as Error).message;
    }
    throw new Error('no error');
  };

  it('names each mistake with its fix', () => {
    expect(message({ ...base, namespace: 'a b' })).toBe(
      `Cannot use McpModule.fromOpenApi({ namespace: 'a b', … }): the namespace "a b" is not 1 to 64 letters, digits, "-" or ".", starting with a letter or a digit (it prefixes every component of the API).\n` +
        `Fix: give a short namespace, e.g. namespace: 'github'.`,
    );
    expect(message({ ...base, baseUrl: 'https://user:secret@api.example.com' })).toBe(
      `Cannot use McpModule.fromOpenApi({ namespace: 'api', … }): baseUrl 'https://api.example.com/' holds credentials (user:password@) (every request goes there).\n` +
        `Fix: give where the API is, e.g. baseUrl: 'https://api.example.com/v1' (credentials go in headers).`,
    );
    expect(message({ ...base, baseUrl: undefined })).toMatch(/: baseUrl is missing and is not a URL \(every request goes there\)/);
    expect(message({ ...base, baseUrl: 'https://api.example.com/v1?key=secret' })).toMatch(/: baseUrl 'https:\/\/api.example.com\/v1' has a query or a fragment/);
    expect(message({ ...base, baseUrl: 'file:///etc' })).toMatch(/: baseUrl 'file:\/\/\/etc' is not an http\(s\) URL/);
    expect(message({ ...base, include: { tag: ['pets'] } })).toBe(
      `Cannot use McpModule.fromOpenApi({ namespace: 'api', … }): include has the criterion 'tag', which is not one of tags, methods, paths, operationIds.\n` +
        `Fix: give include: { tags: ['pets'], methods: ['GET'], paths: ['/pets/*'], operationIds: ['listPets'] } (any of these criteria), or a list of such rules.`,
    );
    expect(message({ ...base, exclude: { methods: ['FETCH'] } })).toMatch(/exclude has methods that are not HTTP methods \(GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH, TRACE\)/);
    expect(message({ ...base, forwardHeaders: ['Authorization'] })).toBe(
      `Cannot use McpModule.fromOpenApi({ namespace: 'api', … }): forwardHeaders names "Authorization", which cannot be passed on (credentials, framing, MCP and proxy headers never are).\n` +
        `Fix: name headers such as 'accept-language' or 'x-request-id'; an API credential goes in headers or upstreamToken.`,
    );
    expect(message({ ...base, headers: { 'x-api-key': 'k\r\nx-evil: 1' } })).toBe(
      `Cannot use McpModule.fromOpenApi({ namespace: 'api', … }): the header "x-api-key" in headers contains CR, LF or NUL, which could inject another header.\n` +
        `Fix: give header names and string values without CR, LF or NUL, e.g. headers: { 'x-api-key': process.env.API_KEY }.`,
    );
    expect(message({ ...base, timeout: 0 })).toMatch(/timeout is 0, not a whole number above 0.\nFix: give timeout: 10000\.$/);
    expect(message({ ...base, document: 42 })).toMatch(/document is neither a document object, a file path nor an http\(s\) URL/);
    expect(message({ ...base, document: 'ftp://example.com/openapi.json' })).toMatch(/document is neither/);
  });
});

describe('McpModule.fromOpenApi(): a document that cannot be served fails the bootstrap (INVALID_OPENAPI_DOCUMENT)', () => {
  let api: RunningApi;
  let dir: string;
  beforeAll(async () => {
    api = await startPetApi();
    dir = mkdtempSync(path.join(tmpdir(), 'openapi-errors-'));
  });
  afterAll(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(() => void (warned.length = 0));
  const at = (document: McpOpenApiOptions['document'], extra: Partial<McpOpenApiOptions> = {}) => failure({ namespace: 'api', document, baseUrl: `${api.origin}/api`, ...extra });

  it('names a document that is not OpenAPI 3.0 or 3.1', async () => {
    const swagger = await at({ swagger: '2.0', info: { title: 'Old', version: '1' }, paths: {} });
    expect(swagger.code).toBe('INVALID_OPENAPI_DOCUMENT');
    expect(swagger.message).toBe(
      `${header("'Old' 1 (an object)")}it is a Swagger 2.0 document, and only OpenAPI 3.0 and 3.1 are read.\nFix: convert it first, e.g. \`npx swagger2openapi swagger.json -o openapi.json\`.`,
    );
    expect((await at({ openapi: '4.0.0', paths: {} })).message).toBe(
      `${header('(an object)')}at #/openapi, its openapi field is "4.0.0", not a 3.0.x or 3.1.x version.\nFix: give an OpenAPI 3.0 or 3.1 document (it starts with openapi: '3.0.3' or '3.1.0').`,
    );
  });

  it('names a file or a URL that cannot be read, parsed or bounded', async () => {
    const missing = path.join(dir, 'missing.yaml');
    expect((await at(missing)).message).toBe(
      `${header(missing)}the file cannot be opened (ENOENT).\nFix: give the path of an OpenAPI document.`,
    );
    // A relative path is read from the working directory: the message names it, the file tried, and join(__dirname, …).
    expect((await at('./specs/nowhere.yaml')).message).toBe(
      `${header('./specs/nowhere.yaml')}the file cannot be opened (ENOENT): the relative path ./specs/nowhere.yaml is read from the working directory, ${process.cwd()}, as ${path.resolve('specs', 'nowhere.yaml')} ` +
        '(a host such as Claude Desktop, Cursor or VS Code starts a server from a folder of its own).\n' +
        "Fix: give a path that does not depend on the working directory: the document's place from the module that declares it, join(__dirname, 'specs/nowhere.yaml') " +
        "(import { join } from 'node:path'; in an ES module, join(import.meta.dirname, 'specs/nowhere.yaml')), with the file copied beside the built module.",
    );
    const broken = path.join(dir, 'broken.yaml');
    writeFileSync(broken, 'openapi: 3.1.0\npaths: [unclosed\n');
    expect((await at(broken)).message).toMatch(new RegExp(`^${escape(header(broken))}it is neither JSON nor YAML \\(.+\\)\\.\\nFix: give a valid JSON or YAML document\\.$`));
    const big = path.join(dir, 'big.json');
    writeFileSync(big, JSON.stringify(doc({})));
    expect((await at(big, { maxDocumentBytes: 10 })).message).toBe(`${header(big)}it is larger than maxDocumentBytes (10 bytes).\nFix: give a smaller document, or raise maxDocumentBytes.`);
    expect((await at(`${api.origin}/nothing.json`)).message).toBe(
      `${header(`${api.origin}/nothing.json`)}its URL answered HTTP 404.\nFix: check the URL (and whether reading it needs credentials: give the document as an object then).`,
    );
    expect((await at(`${api.origin}/api/slow?key=secret`, { documentTimeout: 200 })).message).toBe(
      `${header(`${api.origin}/api/slow`)}reading it took longer than documentTimeout (200 ms).\nFix: check that it can be read quickly, or raise documentTimeout.`,
    );
    expect((await at(`${api.origin}/api/huge`, { maxDocumentBytes: 1024 })).message).toMatch(/it is larger than maxDocumentBytes \(1024 bytes\)/);
  });

  it('names the pointer and the operation of what is wrong inside it', async () => {
    const ref = await at(doc({ '/pets': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: '#/components/schemas/Missing' } } } } } } } }));
    expect(ref.message).toMatch(new RegExp(`^${escape(header("'Broken' 1 (an object)"))}at #/paths/~1pets/get/responses/200/content/application~1json/schema, a \\$ref points to nothing in the document \\(.*Missing.*\\)\\.\\nFix: correct the \\$ref, or add what it names under components\\.$`));
    expect((await at(doc({ '/pets/{id}': { get: { responses: ok } } }))).message).toBe(
      `${header("'Broken' 1 (an object)")}at #/paths/~1pets~1{id}/get (GET /pets/{id}), the path variable {id} of GET /pets/{id} is not declared.\n` +
        `Fix: declare it among the operation's parameters: { name: 'id', in: 'path', required: true, schema: { type: 'string' } }.`,
    );
    const style = doc({ '/pets': { get: { parameters: [{ name: 'q', in: 'query', style: 'matrix', schema: { type: 'string' } }], responses: ok } } });
    expect((await at(style)).message).toBe(
      `${header("'Broken' 1 (an object)")}at #/paths/~1pets/get/parameters/0 (GET /pets), the query parameter 'q' has style 'matrix'.\nFix: give one of form, spaceDelimited, pipeDelimited, deepObject (or leave style out).`,
    );
    const file = doc({ '/pets': { get: { responses: { 200: { description: 'ok', content: { 'application/json': { schema: { $ref: './schemas.json#/Pet' } } } } } } } });
    expect((await at(file)).message).toMatch(/at #\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema \(GET \/pets\), the \$ref '\.\/schemas\.json#\/Pet' points outside the document/);
  });

  it('leaves out, with one warning, the operations it cannot send (a multipart-only body, a required cookie), and serves the rest', async () => {
    const document = doc({
      '/upload': { post: { operationId: 'upload', requestBody: { required: true, content: { 'multipart/form-data': { schema: { type: 'object' } } } }, responses: ok } },
      '/session': { get: { operationId: 'session', parameters: [{ name: 'sid', in: 'cookie', required: true, schema: { type: 'string' } }], responses: ok } },
      '/pets': { get: { operationId: 'pets', parameters: [{ name: 'theme', in: 'cookie', schema: { type: 'string' } }], responses: ok } },
    });
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.fromOpenApi({ namespace: 'api', document, baseUrl: api.origin })] })
    class Gateway {}
    const app = await McpFactory.create(Gateway);
    expect(app.inspect().tools.map((t) => t.name)).toEqual(['api_pets']);
    await app.close();
    expect(warned).toEqual([
      "The OpenAPI document 'Broken' 1 (an object) (namespace 'api'): 2 operations left out, which cannot be served: " +
        'POST /upload: its request body is multipart/form-data, which cannot be sent (multipart bodies are not supported); ' +
        "GET /session: its required cookie parameter 'sid' cannot be sent (cookie parameters are not supported).",
    ]);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
