import 'reflect-metadata';
import path from 'node:path';
import { BootstrapError, McpModule, Module, type McpProxyOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { everythingStdio } from '../support/everything';
import { waitFor } from '../support/waiting';

const REFS = { command: process.execPath, args: [path.join(__dirname, '..', 'fixtures', 'proxy', 'ref-remote.cjs')] };

const logged: string[] = [];
const logger = { error: (message: string) => void logged.push(message), warn: () => undefined, info: () => undefined, debug: () => undefined };

function gateway(proxy: McpProxyOptions) {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.proxy(proxy)] })
  class Gateway {}
  return Gateway;
}

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content ?? [])[0]?.text;

describe.each(['2025-11-25', '2026-07-28'] as const)('McpModule.proxy({ transforms }) (protocol %s)', (protocolVersion) => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    logged.splice(0);
  });

  it('renames a proxied tool and its argument, hides another argument with a fixed value, and forwards the remote’s names', async () => {
    client = await createTestClient(
      gateway({
        namespace: 'ev',
        stdio: everythingStdio,
        transforms: {
          tools: {
            echo: { name: 'say', description: 'Says it back', args: { message: { name: 'text', description: 'What to say' } } },
            'get-sum': { args: { b: { hide: { value: 10 } } } },
            'no-such-tool': { description: 'typo' },
          },
        },
      }),
      { protocolVersion },
    );
    const tools = (await client.listTools()).tools;
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ev_say', 'ev_get-sum']));
    expect(names).not.toContain('ev_echo');
    const say = tools.find((t) => t.name === 'ev_say')!;
    expect(say.description).toBe('Says it back');
    expect(say.inputSchema.properties).toEqual({ text: expect.objectContaining({ type: 'string', description: 'What to say' }) });
    expect(say.inputSchema.required).toEqual(['text']);
    const sum = tools.find((t) => t.name === 'ev_get-sum')!;
    expect(Object.keys(sum.inputSchema.properties!)).toEqual(['a']);
    expect(sum.inputSchema.required).toEqual(['a']);

    expect(text(await client.callTool({ name: 'ev_say', arguments: { text: 'hi' } }))).toBe('Echo: hi');
    expect(text(await client.callTool({ name: 'ev_get-sum', arguments: { a: 2, b: 99 } }))).toBe('The sum of 2 and 10 is 12.');
    const invalid = await client.callTool({ name: 'ev_say', arguments: {} });
    expect(text(invalid)).toMatch(/^Invalid arguments for tool ev_say: text: is required/);
    // A name the remote does not list is reported, and the rest served.
    expect(logged.join('\n')).toMatch(/McpModule\.proxy\(\{ namespace: 'ev', transforms \}\) names 'no-such-tool' in transforms\.tools, which the .* does not list: not applied/);
  });

  it('serves a remote’s tools with their $refs inlined, and leaves out only a tool whose $ref points to another document', async () => {
    client = await createTestClient(gateway({ namespace: 'refs', stdio: REFS }), { protocolVersion });
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(['refs_chain', 'refs_ok']);
    expect(JSON.stringify(tools)).not.toMatch(/"\$ref"|"\$defs"/);
    const chain = tools[0].inputSchema as unknown as { properties: { head: { properties: { next: { properties: { label: unknown } } } } } };
    expect(chain.properties.head.properties.next.properties.label).toEqual({ type: 'string' });
    expect(text(await client.callTool({ name: 'refs_chain', arguments: { head: { label: 'a', next: { label: 'b' } } } }))).toBe('chain: {"head":{"label":"a","next":{"label":"b"}}}');
    await waitFor(() => logged.some((m) => m.includes("'external'")));
    expect(logged.find((m) => m.includes("'external'"))).toMatch(
      /lists the tool 'external', whose schema cannot be sent without references \(\$ref 'https:\/\/example\.com\/schemas\/a\.json' points outside the schema\): left out\./,
    );
  });
});

describe('McpModule.proxy({ transforms }) options', () => {
  it('refuses a malformed transform where the proxy is declared', () => {
    expect(() => McpModule.proxy({ namespace: 'ev', stdio: everythingStdio, transforms: { tools: { echo: { args: { message: { rename: 'x' } as never } } } } })).toThrow(BootstrapError);
    expect(() => McpModule.proxy({ namespace: 'ev', stdio: everythingStdio, transforms: { tools: { echo: { args: { message: { rename: 'x' } as never } } } } })).toThrow(
      "Cannot use McpModule.proxy({ transforms.tools.echo.args.message }): 'rename' is not a field of an argument transform.\nFix: use 'name', 'description', 'default', 'hide'.",
    );
  });
});
