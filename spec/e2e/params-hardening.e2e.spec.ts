import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport, type StandardSchemaV1 } from '@modelcontextprotocol/client';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Param, Prompt, Resource, ResourceTemplate, Tool, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { JSON_AND_SSE, messagesOf, openSession, rawRequest } from '../support/http-helpers';

/** Accepts any result: the requests below are about the error the server answers. */
const ANY_RESULT: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'spec', validate: (value: unknown) => ({ value }) } };

@Injectable()
class Everything {
  @Resource('config://app')
  config(): string {
    return 'app';
  }

  @ResourceTemplate('users://{id}')
  user(@Param('id') id: string): string {
    return `user ${id}`;
  }

  @Prompt()
  greet(@Param('name') name: string): string {
    return `Hello ${name}`;
  }

  // Receives a Context, so the server declares logging and the SDK answers logging/setLevel.
  @Tool()
  echo(@Param() text: string, @Ctx() ctx: Context): string {
    void ctx;
    return text;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'params-hardening', version: '1.0.0' })], providers: [Everything] })
class EverythingModule {}

/** Sends `params` as is (the SDK client does not check what it sends) and returns the JSON-RPC error. */
async function errorOf(client: Client, method: string, params: unknown): Promise<{ code: number; message: string; data?: unknown }> {
  const error = await client.request({ method, params } as never, ANY_RESULT).then(
    () => undefined,
    (e: { code: number; message: string; data?: unknown }) => e,
  );
  if (!error) throw new Error(`expected ${method} to fail`);
  return { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) };
}

const EVERY_ERA: [string, unknown, string][] = [
  ['resources/read', { uri: 5 }, 'Invalid params for resources/read: uri: must be a string'],
  ['resources/read', {}, 'Invalid params for resources/read: uri: is required'],
  ['resources/read', undefined, 'Invalid params for resources/read: uri: is required'],
  ['prompts/get', { name: 3 }, 'Invalid params for prompts/get: name: must be a string'],
  ['prompts/get', { name: 'greet', arguments: { name: 5 } }, 'Invalid params for prompts/get: arguments.name: must be a string'],
  [
    'completion/complete',
    { ref: { type: 'ref/tool' }, argument: { name: 1 } },
    'Invalid params for completion/complete: ref.type: must be one of: "ref/prompt", "ref/resource"; ' +
      'argument.name: must be a string; argument.value: is required',
  ],
  [
    'completion/complete',
    { ref: { type: 'ref/prompt' }, argument: { name: 'name', value: 'A' } },
    'Invalid params for completion/complete: ref.name: is required',
  ],
  ['tools/call', { name: 5 }, 'Invalid params for tools/call: name: must be a string'],
  ['tools/call', { name: 'echo', arguments: ['x'] }, 'Invalid params for tools/call: arguments: must be an object'],
  ['tools/list', { cursor: 5 }, 'Invalid params for tools/list: cursor: must be a string'],
  ['resources/list', { cursor: 5 }, 'Invalid params for resources/list: cursor: must be a string'],
  ['resources/templates/list', { cursor: {} }, 'Invalid params for resources/templates/list: cursor: must be a string'],
  ['prompts/list', { cursor: [1] }, 'Invalid params for prompts/list: cursor: must be a string'],
];

// These methods do not exist on 2026-07-28 (subscriptions/listen and the request envelope replace them).
const ERA_2025: [string, unknown, string][] = [
  ['resources/subscribe', { uri: 5 }, 'Invalid params for resources/subscribe: uri: must be a string'],
  ['resources/unsubscribe', {}, 'Invalid params for resources/unsubscribe: uri: is required'],
  [
    'logging/setLevel',
    { level: 'loud' },
    'Invalid params for logging/setLevel: level: must be one of: "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"',
  ],
];

describe.each(['2025-11-25', '2026-07-28'] as const)('invalid params answer -32602 with a readable message (%s)', (era) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(EverythingModule, { protocolVersion: era });
  });
  afterAll(() => client.close());

  it.each(era === '2025-11-25' ? [...EVERY_ERA, ...ERA_2025] : EVERY_ERA)('%s %j', async (method, params, message) => {
    expect(await errorOf(client, method, params)).toEqual({ code: -32602, message });
  });

  it('leaves the errors of valid requests as they were', async () => {
    expect(await errorOf(client, 'tools/call', { name: 'nope', arguments: {} })).toEqual({ code: -32602, message: 'Unknown tool: nope' });
    expect(await errorOf(client, 'resources/read', { uri: 'config://nope' })).toEqual({
      code: -32602,
      message: 'Resource not found: config://nope',
      data: { uri: 'config://nope' },
    });
    // And the connection still serves.
    expect((await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).content).toEqual([{ type: 'text', text: 'still here' }]);
  });
});

describe('invalid params over raw HTTP JSON-RPC (2025-11-25 session)', () => {
  let app: McpApplication;
  let url: string;
  let session: string;

  beforeAll(async () => {
    app = await McpFactory.create(EverythingModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, path: '/mcp' });
    url = await app.getUrl();
    session = await openSession(url);
  });
  afterAll(() => app.close());

  const post = async (body: object) => {
    const response = await rawRequest(url, {
      headers: { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', ...body }),
    });
    return messagesOf(response.body);
  };

  it('answers the exact JSON-RPC error, with nothing internal in it', async () => {
    expect(await post({ id: 7, method: 'resources/read', params: { uri: ['config://app'] } })).toEqual([
      { jsonrpc: '2.0', id: 7, error: { code: -32602, message: 'Invalid params for resources/read: uri: must be a string' } },
    ]);
    expect(await post({ id: 8, method: 'logging/setLevel', params: { level: 7 } })).toEqual([
      {
        jsonrpc: '2.0',
        id: 8,
        error: {
          code: -32602,
          message:
            'Invalid params for logging/setLevel: level: must be one of: "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"',
        },
      },
    ]);
    expect(await post({ id: 9, method: 'resources/subscribe', params: {} })).toEqual([
      { jsonrpc: '2.0', id: 9, error: { code: -32602, message: 'Invalid params for resources/subscribe: uri: is required' } },
    ]);
  });

  it('answers the same to a 2026-07-28 SDK client over HTTP', async () => {
    const client = new Client({ name: 'params-hardening', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      expect(await errorOf(client, 'prompts/get', { name: 'greet', arguments: { name: 5 } })).toEqual({
        code: -32602,
        message: 'Invalid params for prompts/get: arguments.name: must be a string',
      });
      expect(await errorOf(client, 'tools/call', { name: 'echo', arguments: 'text=hi' })).toEqual({
        code: -32602,
        message: 'Invalid params for tools/call: arguments: must be an object',
      });
    } finally {
      await client.close();
    }
  });
});
