import 'reflect-metadata';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import { BootstrapError, Injectable, McpFactory, McpModule, Module, Param, Tool, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

@Injectable()
class Remote {
  @Tool({ description: 'Adds two numbers' })
  add(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'remote', version: '1.0.0' })], providers: [Remote] })
class RemoteModule {}

const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text;

describe('McpModule.proxy({ transport }): a remote reached through a transport of your own', () => {
  let remote: McpApplication;
  let client: TestClient | undefined;
  const connections: InMemoryTransport[] = [];
  beforeAll(async () => {
    remote = await McpFactory.create(RemoteModule);
  });
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });
  afterAll(() => remote.close());

  /** Each connection of the gateway: a new in-memory pair, its server end connected to the in-process remote. */
  const connect = async () => {
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    await remote.connect(serverEnd);
    connections.push(clientEnd);
    return clientEnd;
  };

  function gateway() {
    @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: { error: () => undefined } as never }), McpModule.proxy({ namespace: 'mem', transport: connect, reconnect: { initialDelay: 20 } })] })
    class Gateway {}
    return Gateway;
  }

  it('serves the in-process server under the namespace, and connects again through the function when the transport closes', async () => {
    client = await createTestClient(gateway());
    const tool = (await client.listTools()).tools.find((t) => t.name === 'mem_add');
    expect(tool).toMatchObject({ description: 'Adds two numbers', inputSchema: { properties: { a: { type: 'number' }, b: { type: 'number' } } } });
    expect(text(await client.callTool({ name: 'mem_add', arguments: { a: 2, b: 3 } }))).toBe('5');
    const before = connections.length;
    await connections[connections.length - 1].close(); // the connection is lost
    let again: unknown;
    for (let i = 0; i < 100 && text(again) !== '7'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      again = await client.callTool({ name: 'mem_add', arguments: { a: 3, b: 4 } }).catch(() => undefined);
    }
    expect(text(again)).toBe('7');
    expect(connections.length).toBe(before + 1);
  });

  it('refuses options naming two ways to the remote, or a transport that is not a function', () => {
    expect(() => McpModule.proxy({ namespace: 'x', url: 'http://127.0.0.1:1/mcp', transport: connect })).toThrow(BootstrapError);
    expect(() => McpModule.proxy({ namespace: 'x', url: 'http://127.0.0.1:1/mcp', transport: connect })).toThrow(/names url and transport: one way to reach the remote/);
    expect(() => McpModule.proxy({ namespace: 'x', transport: {} as never })).toThrow(/transport is not a function/);
    expect(() => McpModule.proxy({ namespace: 'x' })).toThrow(/names no way to reach the remote/);
  });
});
