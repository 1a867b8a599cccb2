import 'reflect-metadata';
import { McpModule, Module } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { startFastMcpPy } from '../support/fastmcp-py';
import type { RunningServer } from '../support/everything';

const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text ?? '';

describe('McpModule.proxy(): a Python FastMCP 4 server over Streamable HTTP', () => {
  let remote: RunningServer;
  let client: TestClient | undefined;
  beforeAll(async () => {
    remote = await startFastMcpPy();
  }, 30_000);
  afterAll(() => remote?.stop());
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('serves its tools, resources, templates and prompts to a %s caller, with progress', async (protocolVersion) => {
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.proxy({ namespace: 'py', url: remote.url })] })
    class Gateway {}
    client = await createTestClient(Gateway, { protocolVersion });
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name).sort()).toEqual(['py_forecast', 'py_slow_count']);
    expect(tools.find((t) => t.name === 'py_forecast')!.inputSchema).toMatchObject({ properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] });
    expect(text(await client.callTool({ name: 'py_forecast', arguments: { city: 'Lyon', days: 2 } }))).toBe('Lyon: sunny for 2 day(s)');
    // validated against its schema before it is forwarded
    expect(await client.callTool({ name: 'py_forecast', arguments: { days: 2 } })).toMatchObject({ isError: true });
    const progress: number[] = [];
    expect(text(await client.callTool({ name: 'py_slow_count', arguments: { to: 3 } }, { onprogress: (p) => void progress.push(p.progress) }))).toBe('counted to 3');
    expect(progress).toEqual([1, 2, 3]);
    expect((await client.readResource({ uri: 'weather://py/stations' })).contents[0]).toMatchObject({ text: 'Lyon, Lisbon' });
    const templates = (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate);
    expect(templates).toEqual(['weather://py/cities/{city}']);
    expect((await client.readResource({ uri: 'weather://py/cities/Lisbon' })).contents[0]).toMatchObject({ text: 'the weather of Lisbon' });
    const prompt = await client.getPrompt({ name: 'py_ask', arguments: { city: 'Paris' } });
    expect(JSON.stringify(prompt.messages)).toMatch(/What is the weather in Paris\?/);
  });
});
