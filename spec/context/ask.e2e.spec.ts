import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Ask, Context, Ctx, Injectable, McpApplication, McpFactory, McpModule, Module, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { JSON_AND_SSE, messagesOf } from '../support/http-helpers';

class UserName {
  @IsString() name!: string;
}

@Injectable()
class Greeter {
  /** Side effects after the last question only: counts the runs that got every answer. */
  completed = 0;

  @Tool()
  async welcome(@Ctx() ctx: Context): Promise<string> {
    const { user_name, greeting, client_roots } = await ctx.ask({
      user_name: Ask.elicit('What is your name?', UserName),
      greeting: Ask.sample('Write a greeting', { maxTokens: 20 }),
      client_roots: Ask.roots(),
    });
    this.completed++;
    const name = user_name.action === 'accept' ? user_name.content.name : user_name.action;
    return `${JSON.stringify(greeting.content)} ${name} in ${client_roots.map((r) => r.uri).join(',')}`;
  }

  /** Keys that are also names on Object.prototype are asked like any other. */
  @Tool()
  async inherited(@Ctx() ctx: Context): Promise<string> {
    const { toString: roots, constructor: who } = await ctx.ask({ toString: Ask.roots(), constructor: Ask.elicit('Who?', UserName) });
    return `${who.action === 'accept' ? who.content.name : who.action} in ${roots.map((r) => r.uri).join(',')}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'ask', version: '1.0.0' })], providers: [Greeter] })
class AskModule {}

const capabilities = { elicitation: {}, sampling: {}, roots: {} };

function answerEverything(client: Awaited<ReturnType<typeof createTestClient>>, asked: string[]) {
  client.setRequestHandler('elicitation/create', async () => {
    asked.push('elicitation/create');
    return { action: 'accept' as const, content: { name: 'Alice' } };
  });
  client.setRequestHandler('sampling/createMessage', async () => {
    asked.push('sampling/createMessage');
    return { role: 'assistant' as const, content: { type: 'text' as const, text: 'Hi' }, model: 'test-model' };
  });
  client.setRequestHandler('roots/list', async () => {
    asked.push('roots/list');
    return { roots: [{ uri: 'file:///work' }] };
  });
}

describe('ctx.ask(): several input requests in one round (SEP-2322)', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('asks them all and resolves every answer under its key (%s)', async (protocolVersion) => {
    const client = await createTestClient(AskModule, { protocolVersion, capabilities });
    const asked: string[] = [];
    answerEverything(client, asked);
    try {
      const result = await client.callTool({ name: 'welcome', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: '{"type":"text","text":"Hi"} Alice in file:///work' }]);
      expect(asked.sort()).toEqual(['elicitation/create', 'roots/list', 'sampling/createMessage']);
    } finally {
      await client.close();
    }
  });

  describe('on the 2026-07-28 wire', () => {
    let app: McpApplication;
    let url: string;
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': capabilities,
    };

    beforeAll(async () => {
      app = await McpFactory.create(AskModule);
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      url = await app.getUrl();
    });
    afterAll(() => app.close());

    async function call(params: Record<string, unknown>, name = 'welcome') {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_AND_SSE, 'mcp-method': 'tools/call', 'mcp-name': name, 'mcp-protocol-version': '2026-07-28' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: {}, ...params, _meta: meta } }),
      });
      return messagesOf(await response.text())[0].result as Record<string, any>;
    }

    const answers = {
      user_name: { action: 'accept', content: { name: 'Bob' } },
      greeting: { role: 'assistant', content: { type: 'text', text: 'Hello' }, model: 'm' },
      client_roots: { roots: [{ uri: 'file:///home' }] },
    };

    it('returns one input_required result carrying every request, and the retry answers them all', async () => {
      const first = await call({});
      expect(first.resultType).toBe('input_required');
      expect(first.inputRequests).toEqual({
        user_name: {
          method: 'elicitation/create',
          params: expect.objectContaining({ message: 'What is your name?', requestedSchema: expect.objectContaining({ required: ['name'] }) }),
        },
        greeting: {
          method: 'sampling/createMessage',
          params: { messages: [{ role: 'user', content: { type: 'text', text: 'Write a greeting' } }], maxTokens: 20 },
        },
        client_roots: { method: 'roots/list' },
      });
      expect(typeof first.requestState).toBe('string');
      const done = await call({ inputResponses: answers, requestState: first.requestState });
      expect(done.content).toEqual([{ type: 'text', text: '{"type":"text","text":"Hello"} Bob in file:///home' }]);
    });

    it('asks again only for what a partial answer left out, keeping the answers given', async () => {
      const first = await call({});
      const { greeting: _greeting, ...partial } = answers;
      const second = await call({ inputResponses: partial, requestState: first.requestState });
      expect(second.resultType).toBe('input_required');
      expect(Object.keys(second.inputRequests)).toEqual(['greeting']);
      const done = await call({ inputResponses: { greeting: answers.greeting }, requestState: second.requestState });
      expect(done.content).toEqual([{ type: 'text', text: '{"type":"text","text":"Hello"} Bob in file:///home' }]);
    });

    it('asks under keys named like Object.prototype members (toString, constructor) instead of finding them answered', async () => {
      const first = await call({}, 'inherited');
      expect(first.resultType).toBe('input_required');
      expect(Object.keys(first.inputRequests).sort()).toEqual(['constructor', 'toString']);
      const done = await call({ inputResponses: { toString: answers.client_roots, constructor: answers.user_name }, requestState: first.requestState }, 'inherited');
      expect(done.content).toEqual([{ type: 'text', text: 'Bob in file:///home' }]);
    });

    it('carries into the next requestState only answers to keys the call asked, not extra keys a client adds', async () => {
      const first = await call({});
      const extra = { padding: { action: 'accept', content: { text: 'x'.repeat(10_000) } } };
      const second = await call({ inputResponses: { user_name: answers.user_name, ...extra }, requestState: first.requestState });
      expect(second.resultType).toBe('input_required');
      expect(second.requestState.length).toBeLessThan(first.requestState.length + 1_000);
    });
  });

  it('refuses the whole round when the client lacks one capability (2026-07-28: -32021)', async () => {
    const client = await createTestClient(AskModule, { protocolVersion: '2026-07-28', capabilities: { elicitation: {}, sampling: {} } });
    try {
      await expect(client.callTool({ name: 'welcome', arguments: {} })).rejects.toMatchObject({
        code: -32021,
        data: { requiredCapabilities: { roots: {} } },
      });
    } finally {
      await client.close();
    }
  });
});
