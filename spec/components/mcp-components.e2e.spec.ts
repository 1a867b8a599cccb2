import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpComponents, McpFactory, McpModule, Module, Prompt, Tool, userMessage } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { Arrivals } from '../support/waiting';

@Injectable()
class Flags {
  /** What onApplicationBootstrap() saw. */
  bootTools: string[] = [];

  constructor(private readonly components: McpComponents) {}

  onApplicationBootstrap(): void {
    this.bootTools = this.components.tools.names();
  }

  @Tool()
  toggle_beta(): string {
    const { tools } = this.components;
    if (tools.isEnabled('beta')) tools.disable('beta');
    else tools.enable('beta');
    return `beta ${tools.isEnabled('beta') ? 'on' : 'off'}`;
  }

  @Tool()
  toggle_hint(): string {
    const { prompts } = this.components;
    if (prompts.isEnabled('hint')) prompts.disable('hint');
    else prompts.enable('hint');
    return `hint ${prompts.isEnabled('hint') ? 'on' : 'off'}`;
  }

  @Tool()
  beta(): string {
    return 'beta';
  }

  @Prompt()
  hint() {
    return [userMessage('a hint')];
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'flags', version: '1.0.0' })], providers: [Flags] })
class FlagsModule {}

describe('McpComponents: the component control, injected', () => {
  it('is the application’s own control, usable from onApplicationBootstrap() on', async () => {
    const app = await McpFactory.create(FlagsModule);
    try {
      expect(app.get(McpComponents).tools).toBe(app.tools);
      expect(app.get(McpComponents).prompts).toBe(app.prompts);
      expect(app.get(McpComponents).resources).toBe(app.resources);
      expect(app.get(Flags).bootTools).toEqual(['toggle_beta', 'toggle_hint', 'beta']);
    } finally {
      await app.close();
    }
  });

  it('changes the catalogue from inside a tool, and connected clients hear of it (2025-11-25)', async () => {
    const client = await createTestClient(FlagsModule);
    const seen = new Arrivals<string>();
    client.setNotificationHandler('notifications/tools/list_changed', () => seen.push('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => seen.push('prompts'));
    try {
      expect((await client.callTool({ name: 'toggle_beta', arguments: {} })).content).toEqual([{ type: 'text', text: 'beta off' }]);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['toggle_beta', 'toggle_hint']);
      expect((await client.callTool({ name: 'toggle_hint', arguments: {} })).content).toEqual([{ type: 'text', text: 'hint off' }]);
      expect((await client.listPrompts()).prompts).toEqual([]);
      expect(await seen.until(2)).toEqual(['tools', 'prompts']);
    } finally {
      await client.close();
    }
  });

  it('reaches the subscriptions/listen streams of 2026-07-28 clients', async () => {
    const app = await McpFactory.create(FlagsModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    const client = new Client({ name: 'listener', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl())));
    const seen = new Arrivals<string>();
    client.setNotificationHandler('notifications/tools/list_changed', () => seen.push('tools'));
    client.setNotificationHandler('notifications/prompts/list_changed', () => seen.push('prompts'));
    try {
      await client.listen({ toolsListChanged: true, promptsListChanged: true });
      await client.callTool({ name: 'toggle_beta', arguments: {} });
      expect(await seen.until(1)).toEqual(['tools']);
      await client.callTool({ name: 'toggle_hint', arguments: {} });
      expect(await seen.until(2)).toEqual(['tools', 'prompts']);
    } finally {
      await client.close();
      await app.close();
    }
  });

  it('refuses, with cause and fix, to be used before the components exist', async () => {
    @Injectable()
    class Early {
      constructor(components: McpComponents) {
        components.tools.names();
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'early', version: '1.0.0' })], providers: [Early] })
    class EarlyModule {}
    await expect(McpFactory.create(EarlyModule)).rejects.toMatchObject({
      message: expect.stringContaining(
        "Cannot reach the tools through McpComponents yet: the application's components are built after the providers are constructed and initialised.\n" +
          'Fix: use McpComponents in a tool, resource or prompt call, or from onApplicationBootstrap() on, not in a constructor or onModuleInit().',
      ),
    });
  });
});
