import 'reflect-metadata';
import {
  BootstrapError,
  Injectable,
  McpModule,
  Module,
  Param,
  Tool,
  type CanActivate,
  type ExecutionContext,
  type McpProxyOptions,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { everythingStdio, startEverythingHttp, type RunningServer } from '../support/everything';
import { waitFor } from '../support/waiting';

/** A gateway guard: a caller without the 'echo' scope neither sees nor calls the proxied echo tool. */
class EchoNeedsScope implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.name !== 'ev_echo' || (context.auth?.scopes ?? []).includes('echo');
  }
}

@Injectable()
class Local {
  @Tool()
  local(@Param() a: number): string {
    return `local ${a}`;
  }
}

const logged: string[] = [];
const logger = { error: (message: string) => void logged.push(message), warn: () => undefined, info: () => undefined, debug: () => undefined };

function gateway(proxy: McpProxyOptions) {
  @Module({
    imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', guards: [EchoNeedsScope], logger: logger as never }), McpModule.proxy(proxy)],
    providers: [Local],
  })
  class Gateway {}
  return Gateway;
}

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content ?? [])[0]?.text;

describe('McpModule.proxy(): the official reference server (server-everything) as a provider', () => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  it('serves its tools, resources, templates and prompts under the namespace, over stdio, beside local tools', async () => {
    client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio }), { auth: { subject: 'ada', scopes: ['echo'] } });
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['local', 'ev_echo', 'ev_get-sum', 'ev_trigger-long-running-operation']));
    const sum = tools.find((t) => t.name === 'ev_get-sum')!;
    expect(sum.inputSchema).toMatchObject({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } }); // the remote's schema
    expect(text(await client.callTool({ name: 'ev_echo', arguments: { message: 'hi' } }))).toBe('Echo: hi');
    expect(text(await client.callTool({ name: 'ev_get-sum', arguments: { a: 2, b: 3 } }))).toBe('The sum of 2 and 3 is 5.');
    expect(text(await client.callTool({ name: 'local', arguments: { a: 1 } }))).toBe('local 1');
    // The gateway validates with the remote's schema before forwarding.
    const invalid = await client.callTool({ name: 'ev_get-sum', arguments: { a: 'two', b: 3 } });
    expect(invalid).toMatchObject({ isError: true });
    expect(text(invalid)).toMatch(/Invalid arguments for tool ev_get-sum/);

    const resources = (await client.listResources()).resources;
    expect(resources.length).toBeGreaterThan(0);
    expect(resources.every((r) => r.uri.startsWith('demo://ev/'))).toBe(true);
    const first = resources[0];
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents[0]).toMatchObject({ uri: first.uri.replace('demo://ev/', 'demo://') }); // the remote's contents, as it gave them

    const templates = (await client.listResourceTemplates()).resourceTemplates;
    const dynamic = templates.find((t) => t.uriTemplate.includes('dynamic/text'))!;
    expect(dynamic.uriTemplate).toMatch(/^demo:\/\/ev\/resource\/dynamic\/text\/\{/);
    const viaTemplate = await client.readResource({ uri: dynamic.uriTemplate.replace(/\{[^}]+\}/, '3') });
    expect(JSON.stringify(viaTemplate.contents)).toMatch(/3/);

    const prompts = (await client.listPrompts()).prompts.map((p) => p.name);
    expect(prompts).toEqual(expect.arrayContaining(['ev_simple-prompt', 'ev_args-prompt']));
    const prompt = await client.getPrompt({ name: 'ev_args-prompt', arguments: { city: 'Lyon' } });
    expect(JSON.stringify(prompt.messages)).toContain('Lyon');
  });

  it("runs the gateway's pipeline on proxied tools: a guard hides and refuses one for a caller without the scope", async () => {
    client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio }), { auth: { subject: 'bob', scopes: [] } });
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toContain('ev_get-sum');
    expect(names).not.toContain('ev_echo');
    await expect(client.callTool({ name: 'ev_echo', arguments: { message: 'hi' } })).rejects.toThrow(/ev_echo/);
  });

  it("forwards completions of its prompts' arguments and its templates' variables, with the arguments already given", async () => {
    client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio }));
    const department = await client.complete({ ref: { type: 'ref/prompt', name: 'ev_completable-prompt' }, argument: { name: 'department', value: 'E' } });
    expect(department.completion.values).toEqual(['Engineering']);
    const lead = await client.complete({
      ref: { type: 'ref/prompt', name: 'ev_completable-prompt' },
      argument: { name: 'name', value: '' },
      context: { arguments: { department: 'Sales' } },
    });
    expect(lead.completion.values).toEqual(['David', 'Eve', 'Frank']);
    const template = (await client.listResourceTemplates()).resourceTemplates.find((t) => t.uriTemplate.includes('{resourceId}'))!;
    const ids = await client.complete({ ref: { type: 'ref/resource', uri: template.uriTemplate }, argument: { name: 'resourceId', value: '1' } });
    expect(ids.completion.values.length).toBeGreaterThan(0);
    expect(ids.completion.values.every((v) => v.startsWith('1'))).toBe(true);
  });

  it("passes the remote's resource updates to the sessions subscribed to the served URI", async () => {
    client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio }));
    const [first, second] = (await client.listResources()).resources;
    await client.subscribeResource({ uri: first.uri });
    const updated: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (n) => void updated.push(n.params.uri));
    await client.callTool({ name: 'ev_toggle-subscriber-updates', arguments: {} });
    await waitFor(() => updated.length > 0, { timeout: 10_000, what: 'a resources/updated notification' });
    expect(updated[0]).toBe(first.uri); // the served URI, only the one subscribed to
    expect(updated).not.toContain(second.uri);
  });

  it('passes progress through; a cancelled call rejects, and the gateway keeps serving', async () => {
    client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio }));
    const progress: number[] = [];
    const result = await client.callTool(
      { name: 'ev_trigger-long-running-operation', arguments: { duration: 1, steps: 3 } },
      { onprogress: (p) => void progress.push(p.progress) },
    );
    expect(text(result)).toMatch(/completed/i);
    expect(progress).toEqual([1, 2, 3]);

    const controller = new AbortController();
    const call = client.callTool({ name: 'ev_trigger-long-running-operation', arguments: { duration: 30, steps: 30 } }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 300);
    await expect(call).rejects.toThrow(/abort/i);
    // The gateway still serves (the remote was told, and the connection is fine).
    expect(text(await client.callTool({ name: 'ev_get-sum', arguments: { a: 4, b: 5 } }))).toBe('The sum of 4 and 5 is 9.');
  });

  describe('over Streamable HTTP', () => {
    let remote: RunningServer | undefined;
    afterEach(async () => {
      await remote?.stop();
      remote = undefined;
    });

    it('proxies the HTTP mode of server-everything, with a header of the proxy sent upstream', async () => {
      remote = await startEverythingHttp();
      client = await createTestClient(gateway({ namespace: 'web', url: remote.url, headers: { 'x-api-key': 'k' } }));
      expect(text(await client.callTool({ name: 'web_get-sum', arguments: { a: 20, b: 22 } }))).toBe('The sum of 20 and 22 is 42.');
    });

    it('a remote that is down fails only its own components, and they appear once it is up', async () => {
      const probe = await startEverythingHttp();
      const { port, url } = probe;
      await probe.stop();
      logged.length = 0;
      client = await createTestClient(gateway({ namespace: 'web', url, connectTimeout: 2_000, reconnect: { initialDelay: 200, maxDelay: 400 } }));
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['local']);
      expect(text(await client.callTool({ name: 'local', arguments: { a: 2 } }))).toBe('local 2');
      expect(logged.join('\n')).toMatch(/Cannot connect to the remote MCP server 'web'[\s\S]*retrying/);
      remote = await startEverythingHttp(port);
      await waitFor(async () => (await client!.listTools()).tools.some((t) => t.name === 'web_get-sum'), { timeout: 15_000 });
      expect(text(await client.callTool({ name: 'web_get-sum', arguments: { a: 1, b: 1 } }))).toBe('The sum of 1 and 1 is 2.');
    });

    it('a remote lost after it connected fails its components, naming it, and is reconnected when it is back', async () => {
      remote = await startEverythingHttp();
      const { port, url } = remote;
      client = await createTestClient(gateway({ namespace: 'web', url, requestTimeout: 3_000, reconnect: { initialDelay: 200, maxDelay: 400 } }));
      expect(text(await client.callTool({ name: 'web_get-sum', arguments: { a: 1, b: 2 } }))).toBe('The sum of 1 and 2 is 3.');
      await remote.stop();
      await expect(client.callTool({ name: 'web_get-sum', arguments: { a: 1, b: 2 } })).rejects.toThrow(/remote MCP server 'web'/);
      remote = await startEverythingHttp(port);
      // A new process: the old session is gone, so only a new connection serves again.
      const back = await waitFor(
        async () => text(await client!.callTool({ name: 'web_get-sum', arguments: { a: 2, b: 2 } }).catch(() => ({ content: [] }))),
        { timeout: 15_000 },
      );
      expect(back).toBe('The sum of 2 and 2 is 4.');
    });
  });

  it('a remote that does not answer within connectTimeout: the log names the option, how to raise it, and a start without a download', async () => {
    logged.length = 0;
    // A process that never speaks MCP, like `npx -y <package>` still downloading it.
    const silent = { command: process.execPath, args: ['-e', 'setInterval(() => {}, 1000)'] };
    client = await createTestClient(gateway({ namespace: 'slow', stdio: silent, connectTimeout: 300, reconnect: { initialDelay: 60_000, maxDelay: 60_000 } }));
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['local']);
    const line = logged.find((l) => l.includes("remote MCP server 'slow'")) ?? '';
    expect(line).toContain('no answer within connectTimeout (300 ms). Fix: raise it if the remote is slow to start: McpModule.proxy({ ..., connectTimeout: 30000 })');
    expect(line).toContain('start the remote without a download: npm install it, then stdio: { command: process.execPath');
  });

  it('refuses options it cannot serve, naming the fix', () => {
    expect(() => McpModule.proxy({ namespace: 'ev' } as McpProxyOptions)).toThrow(/names no way to reach the remote[\s\S]*Fix:/);
    expect(() => McpModule.proxy({ namespace: 'bad space', url: 'http://x' })).toThrow(BootstrapError);
    expect(() => McpModule.proxy({ namespace: 'ev', url: 'ftp://x' })).toThrow(/not an http\(s\) URL/);
  });
});
