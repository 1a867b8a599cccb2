import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Prompt, Resource, Tool, type McpModuleOptions } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { Arrivals, roundTrip } from '../support/waiting';

type Era = '2025-11-25' | '2026-07-28';

@Injectable()
class OnlyTools {
  @Tool()
  ping(): string {
    return 'pong';
  }
}

/** Not a provider: its prompt and resource are added at runtime. */
class LaterComponents {
  @Prompt()
  later(): string {
    return 'added later';
  }

  @Resource('later://doc')
  doc(): string {
    return 'later doc';
  }
}

function toolsModule(options: Partial<McpModuleOptions> = {}): Function {
  @Module({ imports: [McpModule.forRoot({ name: 'caps', version: '1.0.0', ...options })], providers: [OnlyTools] })
  class ToolsModule {}
  return ToolsModule;
}

describe.each(['2025-11-25', '2026-07-28'] as Era[])('declared capabilities (%s)', (era) => {
  it('declares only the kinds the application has, and answers the others with "method not found"', async () => {
    const client = await createTestClient(toolsModule(), { protocolVersion: era });
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true } });
      expect((await client.callTool({ name: 'ping', arguments: {} })).content).toEqual([{ type: 'text', text: 'pong' }]);
      await expect(client.request({ method: 'prompts/list', params: {} })).rejects.toMatchObject({ code: ProtocolErrorCode.MethodNotFound });
      await expect(client.request({ method: 'resources/list', params: {} })).rejects.toMatchObject({ code: ProtocolErrorCode.MethodNotFound });
    } finally {
      await client.close();
    }
  });

  it('declares every kind with components, completions with prompts or resources, logging with a Context', async () => {
    @Injectable()
    class Everything {
      @Tool() async t(@Ctx() ctx: Context): Promise<string> { await ctx.log.info('called'); return 't'; }
      @Prompt() p(): string { return 'p'; }
      @Resource('r://x') r(): string { return 'r'; }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'caps', version: '1.0.0' })], providers: [Everything] })
    class EverythingModule {}
    const client = await createTestClient(EverythingModule, { protocolVersion: era });
    try {
      expect(client.getServerCapabilities()).toEqual({
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      });
    } finally {
      await client.close();
    }
  });

  it('declares logging up front with `capabilities: { logging: true }`', async () => {
    const client = await createTestClient(toolsModule({ capabilities: { logging: true } }), { protocolVersion: era });
    try {
      expect(client.getServerCapabilities()).toEqual({ tools: { listChanged: true }, logging: {} });
    } finally {
      await client.close();
    }
  });

  it('serves a kind first added at runtime to sessions that open afterwards', async () => {
    const app = await McpFactory.create(toolsModule());
    const before = await createTestClient(app, { protocolVersion: era });
    const notified: string[] = [];
    before.setNotificationHandler('notifications/prompts/list_changed', () => void notified.push('prompts'));
    try {
      app.prompts.add(new LaterComponents());
      await roundTrip(before); // a notification sent for the change would have arrived before this answer
      // The open session never declared prompts: it is not told about them, and nothing fails.
      expect(notified).toEqual([]);
      expect(before.getServerCapabilities()?.prompts).toBeUndefined();

      const after = await createTestClient(app, { protocolVersion: era });
      expect(after.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, resources: { listChanged: true }, completions: {} });
      expect((await after.listPrompts()).prompts.map((p) => p.name)).toEqual(['later']);
      expect((await after.readResource({ uri: 'later://doc' })).contents).toEqual([{ uri: 'later://doc', mimeType: 'text/plain', text: 'later doc' }]);
    } finally {
      await before.close();
      await app.close();
    }
  });

  it('with `capabilities`, declares a kind while empty, so open sessions see its first component', async () => {
    const client = await createTestClient(toolsModule({ capabilities: { prompts: true, resources: true } }), { protocolVersion: era });
    const notified = new Arrivals<string>();
    client.setNotificationHandler('notifications/prompts/list_changed', () => notified.push('prompts'));
    client.setNotificationHandler('notifications/resources/list_changed', () => notified.push('resources'));
    const subscription = era === '2026-07-28' ? await client.listen({ promptsListChanged: true, resourcesListChanged: true }) : undefined;
    try {
      expect(client.getServerCapabilities()).toMatchObject({ prompts: { listChanged: true }, resources: { listChanged: true }, completions: {} });
      expect((await client.listPrompts()).prompts).toEqual([]);
      client.app.prompts.add(new LaterComponents());
      await notified.until(2);
      await roundTrip(client); // and nothing more
      expect([...notified.items].sort()).toEqual(['prompts', 'resources']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['later']);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['later://doc']);
    } finally {
      await subscription?.close();
      await client.close();
    }
  });
});
