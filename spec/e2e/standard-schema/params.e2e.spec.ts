import 'reflect-metadata';
import { type } from 'arktype';
import { Injectable, McpFactory, McpModule, Module, Param, Prompt, ResourceTemplate, Tool, userMessage, type McpApplication } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as z from 'zod';
import { JSON_AND_SSE, messagesOf, rawRequest } from '../../support/http-helpers';

const region = z
  .string()
  .regex(/^[a-z]{2}-[a-z]+-\d$/)
  .refine((s) => !s.startsWith('xx-'), { message: 'is a retired region' });

@Injectable()
class Mixed {
  @Tool()
  zod_book(
    @Param('city') city: string,
    @Param('nights', { schema: z.number().int().min(1).max(14).default(2) }) nights: number,
    @Param('tag', { schema: z.string().transform((s) => s.toUpperCase()).optional() }) tag?: string,
  ): string {
    return `${city} for ${nights} ${tag ?? '-'}`;
  }

  @Tool()
  valibot_book(@Param('city') city: string, @Param('nights', { schema: toStandardJsonSchema(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14))) }) nights: number): string {
    return `${city} for ${nights}`;
  }

  @Tool()
  ark_book(@Param('city') city: string, @Param('nights', { schema: type('1 <= number.integer <= 14') }) nights: number): string {
    return `${city} for ${nights}`;
  }

  @Tool()
  deploy(@Param('region', { schema: region, header: 'Region' }) where: string, @Param('replicas', { type: 'integer', optional: true }) replicas?: number): string {
    return `deploy ${where} x${replicas ?? 1}`;
  }

  @Tool({ parameters: z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }), dryRun: z.boolean().default(false) }) })
  rollout(args: { region: string; dryRun: boolean }): string {
    return `rollout ${args.region}${args.dryRun ? ' (dry run)' : ''}`;
  }

  @Prompt({ description: 'Plan a trip' })
  plan(@Param('city', { schema: z.string().min(2) }) city: string, @Param('style', { schema: z.enum(['slow', 'fast']).default('slow') }) style: string) {
    return [userMessage(`Plan a ${style} trip to ${city}`)];
  }

  @ResourceTemplate('rooms://{number}', { mimeType: 'text/plain' })
  room(@Param('number', { schema: z.string().regex(/^\d+$/).transform(Number) }) number: number): string {
    return `room ${number + 1}`;
  }
}

const logger = { error() {}, warn() {} };

@Module({ imports: [McpModule.forRoot({ name: 'mixed', version: '1.0.0', logger })], providers: [Mixed] })
class MixedModule {}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0]).text;

describe('@Param({ schema }) with a Standard Schema, beside other @Param()s', () => {
  it('merges its JSON Schema into the input schema: its default shown, optional when the library accepts absence', async () => {
    const client = await createTestClient(MixedModule);
    try {
      const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      expect(tools.zod_book).toEqual({
        type: 'object',
        properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1, maximum: 14, default: 2 }, tag: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      });
      expect(tools.valibot_book).toEqual({
        type: 'object',
        properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1, maximum: 14 } },
        required: ['city', 'nights'],
        additionalProperties: false,
      });
      expect(tools.ark_book).toEqual({
        type: 'object',
        properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1, maximum: 14 } },
        required: ['city', 'nights'],
        additionalProperties: false,
      });
      expect(tools.deploy).toMatchObject({ properties: { region: { type: 'string', 'x-mcp-header': 'Region' } }, required: ['region'] });
      expect(tools.rollout).toEqual({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, dryRun: { type: 'boolean', default: false } },
        required: ['region'],
      });
    } finally {
      await client.close();
    }
  });

  it('passes the parsed value (defaults applied, transforms run) and names each issue with its argument', async () => {
    const client = await createTestClient(MixedModule);
    try {
      expect(text(await client.callTool({ name: 'zod_book', arguments: { city: 'Oslo' } }))).toBe('Oslo for 2 -');
      expect(text(await client.callTool({ name: 'zod_book', arguments: { city: 'Oslo', nights: 3, tag: 'vip' } }))).toBe('Oslo for 3 VIP');
      expect(text(await client.callTool({ name: 'valibot_book', arguments: { city: 'Oslo', nights: 3 } }))).toBe('Oslo for 3');
      expect(text(await client.callTool({ name: 'ark_book', arguments: { city: 'Oslo', nights: 3 } }))).toBe('Oslo for 3');
      // The JSON Schema check names what it can; the library has the last word (a refinement JSON Schema cannot say).
      expect(text(await client.callTool({ name: 'zod_book', arguments: { city: 'Oslo', nights: 30 } }))).toBe(
        'Invalid arguments for tool zod_book: nights: must not be greater than 14',
      );
      expect(text(await client.callTool({ name: 'deploy', arguments: { region: 'Mars' } }))).toBe(
        'Invalid arguments for tool deploy: region: must match the pattern ^[a-z]{2}-[a-z]+-\\d$',
      );
      expect(text(await client.callTool({ name: 'deploy', arguments: { region: 'xx-west-1' } }))).toBe('Invalid arguments for tool deploy: region: is a retired region');
      expect(text(await client.callTool({ name: 'deploy', arguments: { region: 'eu-west-1' } }))).toBe('deploy eu-west-1 x1');
    } finally {
      await client.close();
    }
  });

  it("takes them in prompts' and resource templates' arguments", async () => {
    const client = await createTestClient(MixedModule);
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.find((p) => p.name === 'plan')?.arguments).toEqual([
        { name: 'city', required: true },
        { name: 'style', required: false },
      ]);
      const plan = await client.getPrompt({ name: 'plan', arguments: { city: 'Oslo' } });
      expect(plan.messages[0].content).toEqual({ type: 'text', text: 'Plan a slow trip to Oslo' });
      await expect(client.getPrompt({ name: 'plan', arguments: { city: 'O' } })).rejects.toThrow('Invalid arguments for prompt plan: city: must be at least 2 characters long');
      const room = await client.readResource({ uri: 'rooms://41' });
      expect(room.contents[0]).toMatchObject({ text: 'room 42' });
    } finally {
      await client.close();
    }
  });

  it('shows the schemas in app.inspect()', async () => {
    const app = await McpFactory.create(MixedModule);
    try {
      const tools = Object.fromEntries(app.inspect().tools.map((t) => [t.name, t]));
      expect(tools.rollout.inputSchema).toEqual({
        type: 'object',
        properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, dryRun: { type: 'boolean', default: false } },
        required: ['region'],
      });
      expect(tools.zod_book.inputSchema).toMatchObject({ properties: { nights: { default: 2 } } });
    } finally {
      await app.close();
    }
  });
});

describe('Mcp-Param headers declared by a Standard Schema (SEP-2243)', () => {
  let app: McpApplication;
  let url: string;
  beforeAll(async () => {
    app = await McpFactory.create(MixedModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    url = await app.getUrl();
  });
  afterAll(() => app.close());

  const call = async (name: string, args: Record<string, unknown>, headers: Record<string, string>) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const response = await rawRequest(url, { headers: { ...JSON_AND_SSE, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...headers }, body });
    return { status: response.status, message: messagesOf(response.body).find((m) => m.id === 7) };
  };

  it('checks the header of @Tool({ parameters }) and of @Param({ schema, header })', async () => {
    expect((await call('rollout', { region: 'eu-west-1' }, { 'mcp-param-region': 'eu-west-1' })).message.result.content).toEqual([{ type: 'text', text: 'rollout eu-west-1' }]);
    expect((await call('rollout', { region: 'eu-west-1' }, {})).status).toBe(400);
    expect((await call('deploy', { region: 'eu-west-1' }, { 'mcp-param-region': 'us-east-1' })).status).toBe(400);
    expect((await call('deploy', { region: 'eu-west-1' }, { 'mcp-param-region': 'eu-west-1' })).message.result.content).toEqual([{ type: 'text', text: 'deploy eu-west-1 x1' }]);
  });
});
