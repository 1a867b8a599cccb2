import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpService } from 'mcp-reflect/nest';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { appModule, Greetings, GreetTools, requestStore, RolesGuard, whoToolsBuilt } from './fixtures';

/** mcp-reflect inside a real Nest 11 application: discovery, instances, Nest's enhancers, through a real SDK client. */
const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? [])[0]?.text;

describe('mcp-reflect/nest: components of a Nest application', () => {
  let close: () => Promise<void>;
  let client: TestClient;
  afterEach(() => close?.());

  async function start(auth?: { subject: string; scopes: string[] }) {
    const context = await NestFactory.createApplicationContext(appModule({ name: 'nest-app', version: '1.0.0', http: false }), { logger: false });
    client = await createTestClient(context.get(McpService).application, auth ? { auth } : {});
    close = async () => {
      await client.close();
      await context.close();
    };
    return context;
  }

  it('serves the providers of every module, with instances and services from Nest', async () => {
    const context = await start();
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['asking', 'city', 'greet', 'leak', 'order', 'patient', 'shout', 'trimmed', 'whoami']); // rootWho: admins only
    expect(tools.find((t) => t.name === 'greet')).toMatchObject({ description: 'Greets someone', inputSchema: { properties: { name: { type: 'string' } }, required: ['name'] } });
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada');
    expect(context.get(Greetings).said).toEqual(['Ada']); // the one Nest instance
    expect(await client.callTool({ name: 'greet', arguments: {} })).toMatchObject({ isError: true });
  });

  it("runs Nest's guards (type 'mcp', Reflector metadata), hiding what they deny from lists and calls", async () => {
    RolesGuard.seen = [];
    await start();
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('secret');
    const denied = await client.callTool({ name: 'secret', arguments: {} }).catch((error: Error) => ({ error: error.message }));
    expect(JSON.stringify(denied)).not.toContain('the secret');
    expect(RolesGuard.seen.length).toBeGreaterThan(0);
    expect(new Set(RolesGuard.seen)).toEqual(new Set(['mcp']));
  });

  it('lets a caller whose scopes satisfy the guard see and call it', async () => {
    await start({ subject: 'root', scopes: ['admin'] });
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['secret', 'rootWho']));
    expect(text(await client.callTool({ name: 'secret', arguments: {} }))).toBe('the secret');
    expect(text(await client.callTool({ name: 'rootWho', arguments: {} }))).toMatch(/^root #\d+$/); // a guard on a request-scoped class
  });

  it('runs RxJS interceptors, Nest pipes and exception filters around the method', async () => {
    await start();
    expect(text(await client.callTool({ name: 'shout', arguments: { text: 'quiet' } }))).toBe('QUIET');
    expect(text(await client.callTool({ name: 'trimmed', arguments: { text: '  padded  ' } }))).toBe('[padded]');
    expect(text(await client.callTool({ name: 'order', arguments: { item: 'tea' } }))).toBe('sorry: no tea left');
  });

  it("runs RxJS operators of interceptors (timeout, catchError, delay) and keeps the call's async context behind them", async () => {
    const context = await NestFactory.createApplicationContext(
      appModule({ name: 'nest-app', version: '1.0.0', http: false, middleware: [{ onCallTool: (_ctx, next) => requestStore.run('call-context', next) }] }),
      { logger: false },
    );
    client = await createTestClient(context.get(McpService).application);
    close = async () => {
      await client.close();
      await context.close();
    };
    expect(text(await client.callTool({ name: 'patient', arguments: { ms: 1 } }))).toBe('call-context after 1 ms');
    expect(text(await client.callTool({ name: 'patient', arguments: { ms: 400 } }))).toBe('too slow');
  });

  it('builds request-scoped providers per MCP request, with REQUEST bound to the MCP request', async () => {
    await start({ subject: 'ada', scopes: [] });
    const first = text(await client.callTool({ name: 'whoami', arguments: {} }));
    const second = text(await client.callTool({ name: 'whoami', arguments: {} }));
    expect(first).toMatch(/^mcp #\d+ ada same-context=true$/);
    expect(second).toMatch(/^mcp #\d+ ada same-context=true$/);
    expect(first).not.toBe(second);
  });

  it("binds parameters of Nest's createParamDecorator(), leaving them out of the schema", async () => {
    await start({ subject: 'ada', scopes: [] });
    const asking = (await client.listTools()).tools.find((t) => t.name === 'asking');
    expect(Object.keys((asking?.inputSchema as { properties: object }).properties)).toEqual(['question']);
    expect(text(await client.callTool({ name: 'asking', arguments: { question: 'why?' } }))).toBe('ada asks: why?');
  });

  it("passes Nest's HttpException messages to the caller and masks other errors", async () => {
    await start();
    expect(await client.callTool({ name: 'city', arguments: { name: 'Atlantis' } })).toMatchObject({ isError: true, content: [{ text: 'No city named Atlantis' }] });
    const leak = await client.callTool({ name: 'leak', arguments: {} });
    expect(leak).toMatchObject({ isError: true, content: [{ text: "Error calling tool 'leak'" }] });
    await expect(client.readResource({ uri: 'config://missing' })).rejects.toMatchObject({ code: -32602, message: expect.stringContaining('The configuration is gone') });
    await expect(client.getPrompt({ name: 'picky', arguments: { topic: 'cats' } })).rejects.toMatchObject({
      code: -32602,
      message: expect.stringContaining('topic cats is not allowed; choose another'),
    });
  });

  it('lists a request-scoped component without building it when no guard can apply to it', async () => {
    await start();
    const before = whoToolsBuilt();
    for (let i = 0; i < 3; i++) expect((await client.listTools()).tools.map((t) => t.name)).toContain('whoami');
    expect(whoToolsBuilt()).toBe(before); // the stages are read from metadata at bootstrap: no guard, no instance per list
    await client.callTool({ name: 'whoami', arguments: {} });
    expect(whoToolsBuilt()).toBe(before + 1);
  });

  it('works with @nestjs/testing, overrides included', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [appModule({ name: 'nest-app', version: '1.0.0', http: false })] })
      .overrideProvider(Greetings)
      .useValue({ greet: (name: string) => `Hi ${name} (mock)` })
      .compile();
    await moduleRef.init();
    client = await createTestClient(moduleRef.get(McpService).application);
    close = async () => {
      await client.close();
      await moduleRef.close();
    };
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hi Ada (mock)');
    expect(moduleRef.get(GreetTools)).toBeInstanceOf(GreetTools);
  });
});
