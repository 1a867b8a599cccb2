import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Ctx, Injectable, McpFactory, McpModule, Module, Tool, type Context, type McpApplication, type McpProxyOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { everythingStdio } from '../support/everything';

class Invitee {
  @IsString()
  name!: string;
}

/** A remote written with mcp-reflect itself: a 2026-07-28 server asking its questions with `input_required`. */
@Injectable()
class Host {
  @Tool({ description: 'Asks who to invite, then has the model greet them' })
  async invite(@Ctx() ctx: Context): Promise<string> {
    await ctx.log.info('inviting');
    const who = await ctx.elicit('Who should we invite?', Invitee);
    if (who.action !== 'accept') return `no invite (${who.action})`;
    const greeting = await ctx.sample(`Greet ${who.content.name}`, { maxTokens: 20 });
    const roots = await ctx.listRoots();
    return `${who.content.name}: ${(greeting.content as { text: string }).text} [${roots.map((r) => r.uri).join(',')}]`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'host', version: '1.0.0' })], providers: [Host] })
class HostModule {}

function gateway(proxy: McpProxyOptions) {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: { error() {}, warn() {}, info() {}, debug() {} } as never }), McpModule.proxy(proxy)] })
  class Gateway {}
  return Gateway;
}

const text = (result: unknown) => ((result as { content: { text?: string }[] }).content ?? [])[0]?.text ?? '';
const everyCapability = { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} };

/** Answers the gateway's questions as a user and a model would, recording what was asked. */
function answer(client: TestClient, asked: string[]) {
  client.setRequestHandler('elicitation/create', async (request) => {
    asked.push(`elicit: ${(request.params as { message: string }).message}`);
    return { action: 'accept', content: { name: 'Ada' } } as never;
  });
  client.setRequestHandler('sampling/createMessage', async (request) => {
    asked.push(`sample: ${JSON.stringify(request.params.messages[0].content)}`);
    return { role: 'assistant', content: { type: 'text', text: 'hello!' }, model: 'test-model' } as never;
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots');
    return { roots: [{ uri: 'file:///work', name: 'work' }] } as never;
  });
}

describe("McpModule.proxy(): the remote's questions reach the caller", () => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
  });

  describe('a 2026-07-28 remote (input_required, its requestState carried through the caller’s rounds)', () => {
    let host: McpApplication;
    let url: string;
    beforeAll(async () => {
      host = await McpFactory.create(HostModule);
      await host.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      url = String(await host.getUrl());
    });
    afterAll(() => host.close());

    it.each(['2025-11-25', '2026-07-28'] as const)('elicitation, sampling and roots, round after round, for a %s caller; its log message too', async (protocolVersion) => {
      client = await createTestClient(gateway({ namespace: 'host', url, protocol: '2026-07-28' }), { protocolVersion, capabilities: everyCapability });
      const asked: string[] = [];
      answer(client, asked);
      const logs: unknown[] = [];
      client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
      if (protocolVersion === '2025-11-25') await client.setLoggingLevel('debug');
      // 2025 eras set the level per session; 2026-07-28 asks per request.
      const result = await client.callTool({ name: 'host_invite', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'debug' } });
      expect(text(result)).toBe('Ada: hello! [file:///work]');
      expect(asked).toEqual(['elicit: Who should we invite?', 'sample: {"type":"text","text":"Greet Ada"}', 'roots']);
      expect(logs).toContain('inviting');
    });

    it('a caller without the capability gets a clear error, and a declined form is the remote’s to answer', async () => {
      client = await createTestClient(gateway({ namespace: 'host', url, protocol: '2026-07-28' }), { capabilities: {} });
      const refused = await client.callTool({ name: 'host_invite', arguments: {} });
      expect(refused).toMatchObject({ isError: true });
      expect(text(refused)).toMatch(/needs elicitation, but the client did not declare the 'elicitation' capability/);
      await client.close();

      client = await createTestClient(gateway({ namespace: 'host', url, protocol: '2026-07-28' }), { capabilities: everyCapability });
      client.setRequestHandler('elicitation/create', async () => ({ action: 'decline' }) as never);
      expect(text(await client.callTool({ name: 'host_invite', arguments: {} }))).toBe('no invite (decline)');
    });

    it('an answer state forged by the caller is refused by the gateway, not sent on', async () => {
      client = await createTestClient(gateway({ namespace: 'host', url, protocol: '2026-07-28' }), { protocolVersion: '2026-07-28', capabilities: everyCapability });
      const forged = await client
        .request({ method: 'tools/call', params: { name: 'host_invite', arguments: {}, requestState: 'm:{"s":"x","k":[]}', inputResponses: {} } } as never, undefined as never)
        .then(
          () => 'answered',
          (error: Error) => error.message,
        );
      expect(forged).toMatch(/requestState|state/i);
    });
  });

  describe('a 2025-era remote (server-everything: questions sent as requests while the call runs)', () => {
    it.each(['2025-11-25', '2026-07-28'] as const)('elicitation and sampling for a %s caller', async (protocolVersion) => {
      client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio }), { protocolVersion, capabilities: everyCapability });
      const asked: string[] = [];
      answer(client, asked);
      const elicited = await client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} });
      expect(JSON.stringify(elicited.content)).toMatch(/Ada/);
      const sampled = await client.callTool({ name: 'ev_trigger-sampling-request', arguments: { prompt: 'a haiku', maxTokens: 30 } });
      expect(text(sampled)).toMatch(/hello!/);
      expect(asked).toEqual(['elicit: Please provide inputs for the following fields:', expect.stringMatching(/^sample: .*a haiku/)]);
    });

    it('a question the caller does not answer in time fails the remote’s call, not the gateway', async () => {
      client = await createTestClient(gateway({ namespace: 'ev', stdio: everythingStdio, requestTimeout: 300 }), { capabilities: everyCapability });
      client.setRequestHandler('elicitation/create', () => new Promise(() => undefined)); // never answers
      const slow = client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} }, { timeout: 1_500 }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      await expect(slow).resolves.toMatch(/timed out|Request timed out/i);
      client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Bob' } }) as never);
      expect(JSON.stringify((await client.callTool({ name: 'ev_trigger-elicitation-request', arguments: {} })).content)).toMatch(/Bob/);
    });
  });
});
