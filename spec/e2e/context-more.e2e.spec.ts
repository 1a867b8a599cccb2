import 'reflect-metadata';
import {
  Context,
  Ctx,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  Tool,
  type ClientInfo,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { deferred, within, type Deferred } from '../support/waiting';

const seen: { client?: ClientInfo; protocolVersion?: string; started?: Deferred; stopped?: Deferred; aborted?: boolean; reason?: unknown } = {};

@Injectable()
class Introspection {
  @Tool()
  whoami(@Ctx() ctx: Context): string {
    seen.client = ctx.client;
    seen.protocolVersion = ctx.protocolVersion;
    return `${ctx.client.name}@${ctx.client.version} on ${ctx.protocolVersion}`;
  }

  @Tool()
  async waitForAbort(@Ctx() ctx: Context): Promise<string> {
    seen.started?.resolve();
    await new Promise<void>((resolve) => ctx.signal.addEventListener('abort', () => resolve(), { once: true }));
    seen.aborted = ctx.signal.aborted;
    seen.reason = ctx.signal.reason;
    seen.stopped?.resolve();
    return 'aborted';
  }

  @Tool()
  async chatty(@Ctx() ctx: Context): Promise<string> {
    await ctx.log.debug('debug detail');
    await ctx.log.info({ stage: 'start' }, 'worker');
    await ctx.log.warning('careful');
    await ctx.log.error('bad thing');
    return 'logged';
  }

  @Prompt({ description: 'Greets the client by name' })
  greeting(@Param('tone') tone: string, @Ctx() ctx: Context): string {
    return `${tone} hello, ${ctx.client.name} (${ctx.protocolVersion})`;
  }

  @Resource('whoami://client')
  clientResource(@Ctx() ctx: Context): object {
    return { name: ctx.client.name, version: ctx.client.version, protocolVersion: ctx.protocolVersion };
  }

  @ResourceTemplate('echo://{word}')
  echo(@Param('word') word: string, @Ctx() ctx: Context): string {
    return `${word} from ${ctx.client.name} on ${ctx.protocolVersion} (request ${typeof ctx.requestId})`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'context-more', version: '1.0.0' })], providers: [Introspection] })
class IntrospectionModule {}

const clientInfo = { name: 'inspector', version: '4.2.0' };

describe.each(['2025-11-25', '2026-07-28'] as const)('Context (%s)', (protocolVersion) => {
  it('ctx.client is the client as it introduced itself, and ctx.protocolVersion the era', async () => {
    const client = await createTestClient(IntrospectionModule, {
      protocolVersion,
      clientInfo,
      capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
    });
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: `inspector@4.2.0 on ${protocolVersion}` }]);
      expect(seen.protocolVersion).toBe(protocolVersion);
      expect(seen.client).toEqual({
        name: 'inspector',
        version: '4.2.0',
        capabilities: { elicitation: { form: {} }, roots: { listChanged: true } },
      });
    } finally {
      await client.close();
    }
  });

  it('ctx.client.capabilities is empty when the client declares none', async () => {
    const client = await createTestClient(IntrospectionModule, { protocolVersion });
    try {
      await client.callTool({ name: 'whoami', arguments: {} });
      expect(seen.client).toEqual({ name: 'mcp-reflect-test-client', version: '1.0.0', capabilities: {} });
    } finally {
      await client.close();
    }
  });

  it('prompts, resources and resource templates receive the Context too', async () => {
    const client = await createTestClient(IntrospectionModule, { protocolVersion, clientInfo });
    try {
      const prompt = await client.getPrompt({ name: 'greeting', arguments: { tone: 'warm' } });
      expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text: `warm hello, inspector (${protocolVersion})` } }]);
      // @Ctx() never becomes a prompt argument.
      expect((await client.listPrompts()).prompts).toEqual([
        { name: 'greeting', description: 'Greets the client by name', arguments: [{ name: 'tone', required: true }] },
      ]);

      expect((await client.readResource({ uri: 'whoami://client' })).contents).toEqual([
        {
          uri: 'whoami://client',
          mimeType: 'application/json',
          text: JSON.stringify({ name: 'inspector', version: '4.2.0', protocolVersion }),
        },
      ]);
      expect((await client.readResource({ uri: 'echo://hi' })).contents).toEqual([
        { uri: 'echo://hi', mimeType: 'text/plain', text: `hi from inspector on ${protocolVersion} (request number)` },
      ]);
    } finally {
      await client.close();
    }
  });

  it('aborts ctx.signal when the client transport closes mid-call', async () => {
    const app = await McpFactory.create(IntrospectionModule);
    const client = await createTestClient(app, { protocolVersion });
    try {
      seen.started = deferred();
      seen.stopped = deferred();
      seen.aborted = undefined;
      const call = client.callTool({ name: 'waitForAbort', arguments: {} }).catch((error: unknown) => error);
      await within(seen.started.promise, 'the tool to start');
      expect(seen.aborted).toBeUndefined();

      // Close the client's side only (TestClient.close would also close the application).
      await Object.getPrototypeOf(client).close.call(client);
      expect(await call).toBeInstanceOf(Error);
      await within(seen.stopped.promise, "the tool's signal to abort");
      expect(seen.aborted).toBe(true);
    } finally {
      await app.close();
    }
  });
});

describe('logging', () => {
  it('on 2025-11-25, logging/setLevel filters what ctx.log sends', async () => {
    const client = await createTestClient(IntrospectionModule);
    try {
      const messages: unknown[] = [];
      client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
      await client.callTool({ name: 'chatty', arguments: {} });
      // No level set yet: everything is sent.
      expect(messages).toEqual([
        { level: 'debug', data: 'debug detail' },
        { level: 'info', logger: 'worker', data: { stage: 'start' } },
        { level: 'warning', data: 'careful' },
        { level: 'error', data: 'bad thing' },
      ]);
      messages.length = 0;
      await client.setLoggingLevel('warning');
      await client.callTool({ name: 'chatty', arguments: {} });
      expect(messages).toEqual([
        { level: 'warning', data: 'careful' },
        { level: 'error', data: 'bad thing' },
      ]);
    } finally {
      await client.close();
    }
  });

  describe('on 2026-07-28', () => {
    it('has no logging/setLevel: the SDK client refuses it', async () => {
      const client = await createTestClient(IntrospectionModule, { protocolVersion: '2026-07-28' });
      try {
        await expect(client.setLoggingLevel('info')).rejects.toThrow(
          "Method 'logging/setLevel' is not supported by the negotiated protocol version (wire era 2026-07-28)",
        );
      } finally {
        await client.close();
      }
    });

    it('sends nothing for a request that does not carry a log level', async () => {
      const client = await createTestClient(IntrospectionModule, { protocolVersion: '2026-07-28' });
      try {
        const messages: unknown[] = [];
        client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
        expect((await client.callTool({ name: 'chatty', arguments: {} })).content).toEqual([{ type: 'text', text: 'logged' }]);
        expect(messages).toEqual([]);
      } finally {
        await client.close();
      }
    });

    it('sends messages at or above the level in the request envelope (_meta io.modelcontextprotocol/logLevel)', async () => {
      const client = await createTestClient(IntrospectionModule, { protocolVersion: '2026-07-28' });
      try {
        const messages: unknown[] = [];
        client.setNotificationHandler('notifications/message', (n) => void messages.push(n.params));
        await client.callTool({ name: 'chatty', arguments: {}, _meta: { 'io.modelcontextprotocol/logLevel': 'info' } });
        expect(messages).toEqual([
          { level: 'info', logger: 'worker', data: { stage: 'start' } },
          { level: 'warning', data: 'careful' },
          { level: 'error', data: 'bad thing' },
        ]);
      } finally {
        await client.close();
      }
    });
  });
});
