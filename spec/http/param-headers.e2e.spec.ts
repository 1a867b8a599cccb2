import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpApplication, McpFactory, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { JSON_AND_SSE, messagesOf, openSession, rawRequest } from '../support/http-helpers';

@Injectable()
class RoutedTools {
  @Tool()
  deploy(
    @Param('region', { header: 'Region' }) region: string,
    @Param('replicas', { type: 'integer', header: 'Replicas', optional: true }) replicas: number,
    @Param('dryRun', { header: 'Dry-Run', optional: true }) dryRun: boolean,
  ): string {
    return `deploy ${region} x${replicas ?? 1}${dryRun ? ' (dry run)' : ''}`;
  }

  @Tool()
  plain(@Param() text: string): string {
    return text;
  }
}

const warnings: string[] = [];

@Module({
  imports: [McpModule.forRoot({ name: 'routed', version: '1.0.0', logger: { error() {}, warn: (m: string) => void warnings.push(m) } })],
  providers: [RoutedTools],
})
class RoutedModule {}

const MODERN = { ...JSON_AND_SSE, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call' };

function callBody(name: string, args: Record<string, unknown>, id = 7): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
}

describe('SEP-2243: @Param({ header }) mirrors an argument into an Mcp-Param header', () => {
  let app: McpApplication;
  let url: string;

  beforeAll(async () => {
    app = await McpFactory.create(RoutedModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  async function call(args: Record<string, unknown>, headers: Record<string, string>, name = 'deploy') {
    const response = await rawRequest(url, { headers: { ...MODERN, 'mcp-name': name, ...headers }, body: callBody(name, args) });
    return { status: response.status, message: messagesOf(response.body).find((m) => m.id === 7) };
  }

  it('advertises x-mcp-header in the input schema', async () => {
    const client = await createTestClient(RoutedModule);
    try {
      const { tools } = await client.listTools();
      expect(tools.find((t) => t.name === 'deploy')?.inputSchema).toEqual({
        type: 'object',
        properties: {
          region: { type: 'string', 'x-mcp-header': 'Region' },
          replicas: { type: 'integer', 'x-mcp-header': 'Replicas' },
          dryRun: { type: 'boolean', 'x-mcp-header': 'Dry-Run' },
        },
        required: ['region'],
        additionalProperties: false,
      });
    } finally {
      await client.close();
    }
  });

  it('serves a 2026-07-28 SDK client, which mirrors the arguments itself', async () => {
    const client = new Client({ name: 'sdk', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      await client.listTools();
      const result = await client.callTool({ name: 'deploy', arguments: { region: 'eu-west-1', replicas: 3 } });
      expect(result.content).toEqual([{ type: 'text', text: 'deploy eu-west-1 x3' }]);
    } finally {
      await client.close();
    }
  });

  it('accepts a Base64 sentinel value, a literal value, and numbers and booleans as text', async () => {
    expect((await call({ region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8=?=' })).message.result.content).toEqual([
      { type: 'text', text: 'deploy Hello x1' },
    ]);
    expect((await call({ region: 'Hello' }, { 'mcp-param-region': 'Hello' })).status).toBe(200);
    const typed = await call({ region: 'eu', replicas: 42, dryRun: true }, { 'mcp-param-region': 'eu', 'mcp-param-replicas': '42.0', 'mcp-param-dry-run': 'true' });
    expect(typed.message.result.content).toEqual([{ type: 'text', text: 'deploy eu x42 (dry run)' }]);
  });

  it.each([
    ['bad Base64 padding', { 'mcp-param-region': '=?base64?SGVsbG8?=' }, 'the Mcp-Param-Region header is not valid Base64 inside =?base64?…?='],
    ['characters outside Base64', { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }, 'the Mcp-Param-Region header is not valid Base64 inside =?base64?…?='],
    ['a missing header', {}, 'the body carries region="Hello" but the Mcp-Param-Region header is absent'],
    ['a different value', { 'mcp-param-region': 'Goodbye' }, 'the Mcp-Param-Region header says "Goodbye" but the body carries region="Hello"'],
  ])('refuses %s with HTTP 400 and -32020, answering the request id', async (_case, headers, body) => {
    const { status, message } = await call({ region: 'Hello' }, headers);
    expect(status).toBe(400);
    expect(message).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32020,
        message: `Bad Request: the request headers and body disagree: ${body}.`,
        data: { mismatch: { header: 'Mcp-Param-Region', body } },
      },
    });
    expect(warnings).toContain(`HTTP: refused tools/call deploy: ${body}`);
  });

  it('quotes at most a short part of a long value in the refusal and the log line', async () => {
    const long = 'x'.repeat(50_000);
    const { status, message } = await call({ region: long }, { 'mcp-param-region': 'y'.repeat(8_000) });
    expect(status).toBe(400);
    const body = `the Mcp-Param-Region header says "${'y'.repeat(79)}… (8002 characters) but the body carries region="${'x'.repeat(79)}… (50002 characters)`;
    expect(message.error).toEqual({ code: -32020, message: `Bad Request: the request headers and body disagree: ${body}.`, data: { mismatch: { header: 'Mcp-Param-Region', body } } });
    expect(warnings.at(-1)).toBe(`HTTP: refused tools/call deploy: ${body}`);
  });

  it('expects no header for an absent argument, and checks nothing for tools without headers', async () => {
    expect((await call({ region: 'eu' }, { 'mcp-param-region': 'eu', 'mcp-param-replicas': 'ignored' })).status).toBe(200);
    expect((await call({ text: 'hi' }, {}, 'plain')).message.result.content).toEqual([{ type: 'text', text: 'hi' }]);
  });

  it('leaves 2025-era requests alone', async () => {
    const session = await openSession(url);
    const response = await rawRequest(url, {
      headers: { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25', 'mcp-method': 'tools/call' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'deploy', arguments: { region: 'eu' } } }),
    });
    expect(response.status).toBe(200);
    expect(messagesOf(response.body).find((m) => m.id === 3).result.content).toEqual([{ type: 'text', text: 'deploy eu x1' }]);
  });
});

describe('@Param({ header }) at bootstrap', () => {
  async function bootstrap(tools: Function) {
    @Module({ imports: [McpModule.forRoot({ name: 'bad', version: '1.0.0' })], providers: [tools as never] })
    class BadModule {}
    return McpFactory.create(BadModule);
  }

  it('refuses a header name that is not an RFC 9110 token', async () => {
    @Injectable()
    class Spaces {
      @Tool()
      go(@Param('region', { header: 'My Region' }) region: string) {
        return region;
      }
    }
    await expect(bootstrap(Spaces)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        "Cannot build the input schema of tool 'go' (Spaces.go): parameter #0 'region' cannot be mirrored into an Mcp-Param header.\n" +
        'Cause: its header option "My Region" is not a valid header name suffix: it must be a non-empty RFC 9110 token ' +
        "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons or other delimiters).\n" +
        "Fix: give a token such as @Param('region', { header: 'Region' }); the header sent is then Mcp-Param-Region.",
    });
  });

  it('refuses a number or object argument', async () => {
    @Injectable()
    class Numbers {
      @Tool()
      go(@Param('ratio', { header: 'Ratio' }) ratio: number) {
        return ratio;
      }
    }
    await expect(bootstrap(Numbers)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        "Cannot build the input schema of tool 'go' (Numbers.go): parameter #0 'ratio' cannot be mirrored into an Mcp-Param header.\n" +
        'Cause: only string, integer and boolean arguments can be mirrored into a header, but its schema type is number.\n' +
        "Fix: declare the argument as an integer (@Param('ratio', { type: 'integer', header: 'Ratio' })) or a string, or drop the header option.",
    });
    @Injectable()
    class Lists {
      @Tool()
      go(@Param('tags', { type: [String], header: 'Tags' }) tags: string[]) {
        return tags;
      }
    }
    await expect(bootstrap(Lists)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message: expect.stringContaining("Cause: only string, integer and boolean arguments can be mirrored into a header, but its schema type is array.\nFix: mirror a string"),
    });
  });

  it('refuses two headers of one tool that differ only in case', async () => {
    @Injectable()
    class Twice {
      @Tool()
      go(@Param('a', { header: 'Region' }) a: string, @Param('b', { header: 'REGION' }) b: string) {
        return a + b;
      }
    }
    await expect(bootstrap(Twice)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        "Cannot build the input schema of tool 'go' (Twice.go): parameter #1 'b' cannot be mirrored into an Mcp-Param header.\n" +
        "Cause: its header 'REGION' is already used by parameter #0 'a' (header names are compared ignoring case).\n" +
        'Fix: give each mirrored argument of a tool its own header name.',
    });
  });
});

describe('x-mcp-header written by hand', () => {
  it('checks a number property all the same (as the SDK does), comparing as numbers, and warns once', async () => {
    const warned: string[] = [];
    @Injectable()
    class Priced {
      @Tool({ inputSchema: { type: 'object', properties: { price: { type: 'number', 'x-mcp-header': 'Price' } } } })
      quote(): string {
        return 'quoted';
      }
    }
    @Module({
      imports: [McpModule.forRoot({ name: 'priced', version: '1.0.0', logger: { error() {}, warn: (m: string) => void warned.push(m) } })],
      providers: [Priced],
    })
    class PricedModule {}
    const app = await McpFactory.create(PricedModule);
    try {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const url = await app.getUrl();
      const post = (header: string) =>
        rawRequest(url, { headers: { ...MODERN, 'mcp-name': 'quote', 'mcp-param-price': header }, body: callBody('quote', { price: 9.5 }) });
      expect((await post('9.50')).status).toBe(200);
      const refused = await post('1000');
      expect(refused.status).toBe(400);
      expect(messagesOf(refused.body).find((m) => m.id === 7).error.code).toBe(-32020);
      expect(warned).toContain(
        "Tool 'quote': price: x-mcp-header needs a string, integer or boolean property, not number; its Mcp-Param headers are checked all the same (numbers compare as numbers).",
      );
    } finally {
      await app.close();
    }
  });

  it('is checked like @Param({ header }), and an invalid declaration is reported once, as the HTTP endpoint starts', async () => {
    const warned: string[] = [];
    @Injectable()
    class Raw {
      @Tool({ inputSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', 'x-mcp-header': 'Tag' } } } } })
      tagged(): string {
        return 'ok';
      }
    }
    @Module({
      imports: [
        McpModule.forRoot({
          name: 'raw',
          version: '1.0.0',
          warnings: { unprovidedComponents: false },
          logger: { error() {}, warn: (m: string) => void warned.push(m) },
        }),
      ],
      providers: [Raw],
    })
    class RawModule {}
    const app = await McpFactory.create(RawModule);
    try {
      // Only HTTP carries Mcp-Param headers: a server that never serves HTTP never scans for them.
      expect(warned).toEqual([]);
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      expect(warned).toEqual([
        "Tool 'tagged': its Mcp-Param headers are not checked: tags.<items>: x-mcp-header is only allowed on a property reached through 'properties' alone.",
      ]);
    } finally {
      await app.close();
    }
  });
});
