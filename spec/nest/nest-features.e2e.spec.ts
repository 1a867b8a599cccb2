import 'reflect-metadata';
import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsString } from 'class-validator';
import { Complete, Ctx, Field, McpComponents, Param, Prompt, Scopes, Tool, type Context } from 'mcp-reflect';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { legacyRequest } from '../tasks/legacy-client';

/**
 * What the library does besides calling methods works the same inside Nest: the Context (progress, logging,
 * elicitation), @Scopes(), completions, tasks, list_changed through McpComponents, generated metadata.
 */
class Name {
  @Field({ description: 'Your name' })
  @IsString()
  name!: string;
}

@Injectable()
class Switchboard {
  constructor(@Inject(McpComponents) private readonly components: McpComponents) {}
  hide(tool: string): void {
    this.components.tools.disable(tool);
  }
}

@Injectable()
class FeatureTools {
  constructor(@Inject(Switchboard) private readonly switchboard: Switchboard) {}

  @Tool()
  async busy(@Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(1, 2, 'half way');
    await ctx.log.info('working hard');
    await ctx.reportProgress(2, 2);
    return 'done';
  }

  @Tool()
  async introduce(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Who are you?', Name);
    return answer.action === 'accept' ? `Nice to meet you, ${answer.content.name}` : 'Maybe later';
  }

  @Tool()
  @Scopes('reports:read')
  report(): string {
    return 'the report';
  }

  @Tool({ task: 'optional' })
  async job(): Promise<string> {
    return 'job finished';
  }

  @Tool()
  retire(@Param('tool') tool: string): string {
    this.switchboard.hide(tool);
    return `${tool} retired`;
  }

  @Prompt()
  plan(@Param('city') city: string): string {
    return `Plan a day in ${city}`;
  }

  @Complete({ prompt: 'plan', argument: 'city' })
  cities(value: string): string[] {
    return ['Paris', 'Prague', 'Porto', 'Oslo'].filter((city) => city.startsWith(value));
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'features', version: '1.0.0', http: false })], providers: [FeatureTools, Switchboard] })
class AppModule {}

const text = (result: unknown) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text;

describe('mcp-reflect features inside a Nest application', () => {
  let client: TestClient;
  let close: () => Promise<void>;
  afterEach(() => close());

  async function start(options: Parameters<typeof createTestClient>[1] = {}) {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: false });
    client = await createTestClient(context.get(McpService).application, options);
    close = async () => {
      await client.close();
      await context.close();
    };
  }

  it('sends progress and logs from the Context', async () => {
    await start();
    const progress: unknown[] = [];
    const logs: unknown[] = [];
    client.setNotificationHandler('notifications/message', (n) => void logs.push(n.params.data));
    await client.setLoggingLevel('info');
    const result = await client.callTool({ name: 'busy', arguments: {} }, { onprogress: (p) => void progress.push(p) });
    expect(text(result)).toBe('done');
    expect(progress).toEqual([expect.objectContaining({ progress: 1, total: 2, message: 'half way' }), expect.objectContaining({ progress: 2, total: 2 })]);
    expect(logs).toEqual(['working hard']);
  });

  it('elicits a DTO form from the client', async () => {
    await start({ capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async (request) => {
      expect(request.params).toMatchObject({ message: 'Who are you?', requestedSchema: { properties: { name: { type: 'string', description: 'Your name' } } } });
      return { action: 'accept' as const, content: { name: 'Ada' } };
    });
    expect(text(await client.callTool({ name: 'introduce', arguments: {} }))).toBe('Nice to meet you, Ada');
  });

  it('hides @Scopes() components from callers without the scope', async () => {
    await start({ auth: { subject: 'bob', scopes: [] } });
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('report');
    await close();
    await start({ auth: { subject: 'ada', scopes: ['reports:read'] } });
    expect(text(await client.callTool({ name: 'report', arguments: {} }))).toBe('the report');
  });

  it('completes prompt arguments', async () => {
    await start();
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'plan' }, argument: { name: 'city', value: 'P' } });
    expect(completed.completion.values).toEqual(['Paris', 'Prague', 'Porto']);
  });

  it('runs a task-augmented call as a task', async () => {
    await start();
    const created = await legacyRequest(client, 'tools/call', { name: 'job', arguments: {}, task: { ttl: 60_000 } });
    expect(created.task).toMatchObject({ status: 'working' });
    const result = await legacyRequest(client, 'tasks/result', { taskId: created.task.taskId });
    expect(result.content).toEqual([{ type: 'text', text: 'job finished' }]);
  });

  it('sends list_changed when a provider changes the tools through McpComponents', async () => {
    await start();
    const changed = new Promise<void>((resolve) => client.setNotificationHandler('notifications/tools/list_changed', () => resolve()));
    expect(text(await client.callTool({ name: 'retire', arguments: { tool: 'busy' } }))).toBe('busy retired');
    await changed;
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('busy');
  });
});
