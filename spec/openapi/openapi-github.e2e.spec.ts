import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import Ajv2020 from 'ajv/dist/2020';
import { McpFactory, McpModule, Module, type McpApplication, type McpOpenApiOptions } from 'mcp-reflect';

/** GitHub's REST API description as @octokit/openapi publishes it (OpenAPI 3.0.3, about 13 MB, 1,200 operations). */
const FILE = path.join(path.dirname(require.resolve('@octokit/openapi/package.json')), 'generated', 'api.github.com.json');
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

interface Seen {
  readonly method: string;
  readonly target: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** A stand-in for api.github.com on 127.0.0.1: the few routes the calls below use, everything recorded. */
async function fakeGitHub(): Promise<{ origin: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', target: req.url ?? '', headers: req.headers, body });
      const json = (status: number, value: unknown) => res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(value));
      if (req.url === '/zen') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('Keep it logically awesome.');
      if (req.url === '/emojis') return json(200, { '+1': 'https://github.githubassets.com/images/icons/emoji/unicode/1f44d.png' });
      if (req.method === 'POST' && req.url === '/repos/octo/hello/issues') return json(422, { message: 'Validation Failed', errors: [{ field: 'title', code: 'missing_field' }] });
      json(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

function github(options: Partial<McpOpenApiOptions> & { baseUrl: string }) {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.fromOpenApi({ namespace: 'github', document: FILE, ...options })] })
  class Gateway {}
  return Gateway;
}

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';

describe("McpModule.fromOpenApi() at scale: GitHub's REST API description (@octokit/openapi)", () => {
  const document = JSON.parse(readFileSync(FILE, 'utf8')) as { paths: Record<string, Record<string, { tags?: string[] }>> };
  const operations = Object.values(document.paths).flatMap((item) => METHODS.filter((m) => item[m]).map((m) => item[m]));
  let api: Awaited<ReturnType<typeof fakeGitHub>>;
  let app: McpApplication;
  /**
   * A client of its own per test: the SDK client compiles the output schema of every tool it listed on its first
   * call (about 30 s for GitHub's: see docs/openapi.md), which the calls below do not need.
   */
  const connect = async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await app.connect(serverEnd, { auth: { subject: 'octocat', clientId: 'spec', scopes: [], claims: {}, token: 'mcp-token-of-octocat' } });
    const client = new Client({ name: 'spec', version: '1.0.0' });
    await client.connect(clientEnd);
    return client;
  };
  beforeAll(async () => {
    api = await fakeGitHub();
    app = await McpFactory.create(github({ baseUrl: api.origin, headers: { 'x-github-api-version': '2022-11-28' }, upstreamToken: (ctx) => `gho_for_${ctx.auth?.subject}` }));
  }, 120_000);
  afterAll(async () => {
    await app?.close();
    await api?.close();
  });

  it('serves every operation as a tool, each schema valid 2020-12 with no $ref, each name unique and within 128 characters', async () => {
    expect(operations.length).toBeGreaterThan(1_000);
    const client = await connect();
    const { tools } = await client.listTools();
    await client.close();
    expect(tools).toHaveLength(operations.length);
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    expect(tools.filter((t) => !/^github_[A-Za-z0-9_.-]+$/.test(t.name) || t.name.length > 128).map((t) => t.name)).toEqual([]);
    expect(tools.find((t) => t.name === 'github_repos_get')?.inputSchema).toEqual({
      type: 'object',
      properties: {
        owner: { type: 'string', description: 'The account owner of the repository. The name is not case sensitive.' },
        repo: { type: 'string', description: 'The name of the repository without the `.git` extension. The name is not case sensitive.' },
      },
      required: ['owner', 'repo'],
      additionalProperties: false,
    });
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    const invalid: string[] = [];
    for (const tool of tools) {
      if (JSON.stringify(tool).includes('"$ref"')) invalid.push(`${tool.name}: $ref`);
      for (const schema of [tool.inputSchema, tool.outputSchema]) if (schema && !ajv.validateSchema(schema)) invalid.push(`${tool.name}: ${ajv.errorsText()}`);
    }
    expect(invalid).toEqual([]);
  });

  it('calls the API at baseUrl with the configured headers and the caller\'s upstream token; answers as text, JSON, or actionable errors', async () => {
    const client = await connect();
    expect(text(await client.callTool({ name: 'github_meta_get-zen', arguments: {} }))).toBe('Keep it logically awesome.');
    expect((await client.callTool({ name: 'github_emojis_get', arguments: {} })).structuredContent).toEqual({ '+1': 'https://github.githubassets.com/images/icons/emoji/unicode/1f44d.png' });
    expect(text(await client.callTool({ name: 'github_repos_get', arguments: { owner: 'octo', repo: 'missing' } }))).toBe(
      'GET /repos/octo/missing answered HTTP 404 Not Found: there is nothing at that address; check the path arguments (a name or an identifier may be wrong)\n{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}',
    );
    const created = await client.callTool({ name: 'github_issues_create', arguments: { owner: 'octo', repo: 'hello', body: { title: 'Found a bug', labels: ['bug'] } } });
    expect(text(created)).toMatch(/^POST \/repos\/octo\/hello\/issues answered HTTP 422 Unprocessable Entity: the API rejected the arguments; check them before trying again\n\{"message":"Validation Failed"/);
    expect(api.seen.map((s) => `${s.method} ${s.target}`)).toEqual(['GET /zen', 'GET /emojis', 'GET /repos/octo/missing', 'POST /repos/octo/hello/issues']);
    expect(JSON.parse(api.seen[3].body)).toEqual({ title: 'Found a bug', labels: ['bug'] });
    for (const seen of api.seen) {
      expect(seen.headers).toMatchObject({ 'x-github-api-version': '2022-11-28', authorization: 'Bearer gho_for_octocat' });
      expect(JSON.stringify(seen.headers)).not.toContain('mcp-token-of-octocat');
    }
    await client.close();
  });

  it('serves a part of it by tag, as fast as that part is small', async () => {
    const issues = await McpFactory.create(github({ baseUrl: api.origin, include: { tags: ['issues'] } }));
    try {
      expect(issues.inspect().tools).toHaveLength(operations.filter((o) => o.tags?.includes('issues')).length);
    } finally {
      await issues.close();
    }
  }, 60_000);
});
