import 'reflect-metadata';
import {
  Complete,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceTemplate,
  Scopes,
  Tool,
  type GeneratedMetadata,
  type InspectedTool,
  type McpApplication,
  type McpInspection,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

// app.inspect() (issue 23, item 5): what an application serves, as frozen descriptions, through the public
// entry; the schemas are those an SDK client lists.

@Injectable()
class Shop {
  @Tool({ description: 'Add two numbers', tags: ['math'], annotations: { readOnlyHint: true } })
  add(@Param() a: number, @Param() b: number): number {
    return a + b;
  }

  @Tool({ title: 'Order', output: Number, task: { support: 'optional', ttlMs: 60_000 } })
  @Scopes('shop:write')
  order(@Param() item: string): number {
    return item.length;
  }

  @Tool({ task: 'required' })
  report(): string {
    return 'done';
  }

  @Resource('shop://about', { name: 'about', description: 'About the shop', mimeType: 'text/plain' })
  about(): string {
    return 'a shop';
  }

  @ResourceTemplate('shop://items/{id}', { name: 'item', complete: { id: ['a1', 'b2'] } })
  item(@Param('id') id: number): string {
    return `item ${id}`;
  }

  @Prompt({ description: 'Describe an item', tags: ['copy'] })
  describe(@Param('item', { description: 'The item' }) item: string, @Param('tone', { optional: true }) tone?: string): string {
    return `Describe ${item}${tone ? ` (${tone})` : ''}`;
  }

  @Complete({ prompt: 'describe', argument: 'item' })
  items(value: string): string[] {
    return ['apple', 'pear'].filter((v) => v.startsWith(value));
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'shop', version: '2.0.0', title: 'The shop' })], providers: [Shop] })
class ShopModule {}

describe('app.inspect()', () => {
  let app: McpApplication;
  let inspection: McpInspection;
  beforeAll(async () => {
    app = await McpFactory.create(ShopModule);
    inspection = app.inspect();
  });
  afterAll(() => app.close());

  it('describes every tool with its schemas, owner, tags, scopes and task settings', () => {
    expect(inspection.server).toEqual({ name: 'shop', version: '2.0.0', title: 'The shop' });
    expect(inspection.generatedTypes).toBe(false);
    expect(inspection.tools).toEqual([
      {
        kind: 'tool',
        name: 'add',
        description: 'Add two numbers',
        enabled: true,
        owner: { class: Shop, method: 'add' },
        tags: ['math'],
        scopes: [],
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
          required: ['a', 'b'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true },
      },
      {
        kind: 'tool',
        name: 'order',
        title: 'Order',
        enabled: true,
        owner: { class: Shop, method: 'order' },
        tags: [],
        scopes: ['shop:write'],
        inputSchema: { type: 'object', properties: { item: { type: 'string' } }, required: ['item'], additionalProperties: false },
        outputSchema: { type: 'object', properties: { result: { type: 'number' } }, required: ['result'], additionalProperties: false },
        task: { support: 'optional', start: 'immediately', ttlMs: 60_000, retry: true },
      },
      {
        kind: 'tool',
        name: 'report',
        enabled: true,
        owner: { class: Shop, method: 'report' },
        tags: [],
        scopes: [],
        inputSchema: { type: 'object', properties: {}, additionalProperties: false },
        task: { support: 'required', start: 'immediately', retry: true },
      },
    ]);
  });

  it('describes resources, templates, prompts and completers', () => {
    expect(inspection.resources).toEqual([
      { kind: 'resource', name: 'about', description: 'About the shop', enabled: true, owner: { class: Shop, method: 'about' }, tags: [], scopes: [], uri: 'shop://about', mimeType: 'text/plain' },
    ]);
    expect(inspection.resourceTemplates).toEqual([
      {
        kind: 'resource-template',
        name: 'item',
        enabled: true,
        owner: { class: Shop, method: 'item' },
        tags: [],
        scopes: [],
        uriTemplate: 'shop://items/{id}',
        inputSchema: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'], additionalProperties: false },
      },
    ]);
    expect(inspection.prompts).toEqual([
      {
        kind: 'prompt',
        name: 'describe',
        description: 'Describe an item',
        enabled: true,
        owner: { class: Shop, method: 'describe' },
        tags: ['copy'],
        scopes: [],
        arguments: [
          { name: 'item', description: 'The item', required: true },
          { name: 'tone', required: false },
        ],
        inputSchema: {
          type: 'object',
          properties: { item: { type: 'string', description: 'The item' }, tone: { type: 'string' } },
          required: ['item'],
          additionalProperties: false,
        },
      },
    ]);
    expect(inspection.completions).toEqual([
      { kind: 'completion', prompt: 'describe', argument: 'item', owner: { class: Shop, method: 'items' }, scopes: [] },
      { kind: 'completion', resourceTemplate: 'shop://items/{id}', argument: 'id', values: ['a1', 'b2'], scopes: [] },
    ]);
  });

  it('gives the schemas an SDK client lists', async () => {
    const client = await createTestClient(ShopModule, { auth: { scopes: ['shop:write'] } });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t.inputSchema, t.outputSchema])).toEqual(inspection.tools.map((t) => [t.name, t.inputSchema, t.outputSchema]));
      expect((await client.listPrompts()).prompts.map((p) => p.arguments)).toEqual(inspection.prompts.map((p) => p.arguments));
    } finally {
      await client.close();
    }
  });

  it('is frozen plain data: changing it changes nothing the server serves', async () => {
    const [tool] = inspection.tools as InspectedTool[];
    expect(Object.isFrozen(tool)).toBe(true);
    expect(Object.isFrozen(tool!.inputSchema.properties)).toBe(true);
    expect(() => ((tool!.inputSchema as Record<string, unknown>).type = 'array')).toThrow(TypeError);
    expect(() => (inspection.tools as InspectedTool[]).pop()).toThrow(TypeError);
    const client = await createTestClient(app);
    expect((await client.listTools()).tools[0]!.inputSchema.type).toBe('object');
    // The client's close() closes the application too: build it again for the next specs.
    await client.close();
    app = await McpFactory.create(ShopModule);
  });

  it('is a snapshot of now: disabled components show enabled: false, added ones appear', async () => {
    app.tools.disable('report');
    @Injectable()
    class Extra {
      @Tool() ping(): string {
        return 'pong';
      }
    }
    app.tools.add(new Extra());
    const now = app.inspect();
    expect(now.tools.map((t) => [t.name, t.enabled, t.owner.class.name])).toEqual([
      ['add', true, 'Shop'],
      ['order', true, 'Shop'],
      ['report', false, 'Shop'],
      ['ping', true, 'Extra'],
    ]);
    expect(inspection.tools).toHaveLength(3); // the earlier snapshot is unchanged
  });

  it('shows the generated types the application loaded, and only its own', async () => {
    const metadata: GeneratedMetadata = {
      version: 1,
      generator: 'mcp-reflect@spec',
      classes: [
        {
          name: 'Shop',
          file: 'src/shop.ts',
          ref: Shop,
          methods: {
            add: { fingerprint: 'add(a, b)', description: 'Adds', params: [{ name: 'a', index: 0, schema: { type: 'integer' } }, { name: 'b', index: 1, schema: { type: 'integer' } }] },
            order: { fingerprint: 'order(item)', params: [{ name: 'item', index: 0, schema: { type: 'string', enum: ['tea', 'cake'] } }] },
            report: { fingerprint: 'report()', params: [] },
            about: { fingerprint: 'about()', params: [] },
            item: { fingerprint: 'item(id)', params: [{ name: 'id', index: 0, schema: { type: 'number' } }] },
            describe: { fingerprint: 'describe(item, tone)', params: [{ name: 'item', index: 0, schema: { type: 'string' } }, { name: 'tone', index: 1, schema: { type: 'string' }, optional: true }] },
            items: { fingerprint: 'items(value)', params: [{ name: 'value', index: 0, schema: { type: 'string' } }] },
          },
        },
      ],
    };
    const typed = await McpFactory.create(ShopModule, { metadata });
    try {
      const described = typed.inspect();
      expect(described.generatedTypes).toBe(true);
      expect(described.tools.find((t) => t.name === 'order')!.inputSchema.properties).toEqual({ item: { type: 'string', enum: ['tea', 'cake'] } });
      expect(described.tools.find((t) => t.name === 'add')!.inputSchema.properties).toEqual({ a: { type: 'integer' }, b: { type: 'integer' } });
      // The other application, without metadata, is untouched.
      expect(app.inspect().tools.find((t) => t.name === 'order')!.inputSchema.properties).toEqual({ item: { type: 'string' } });
    } finally {
      await typed.close();
    }
  });

  it('runs the example of its TSDoc (McpApplication.inspect)', () => {
    const lines: unknown[][] = [];
    const console = { log: (...args: unknown[]) => void lines.push(args) };
    // The @example of McpApplication.inspect(), as written there.
    const { tools } = app.inspect();
    for (const tool of tools) console.log(`${tool.name} (${tool.owner.class.name}.${tool.owner.method})`, tool.inputSchema);
    expect(lines[0]).toEqual(['add (Shop.add)', inspection.tools[0]!.inputSchema]);
    expect(lines.map((l) => l[0])).toEqual(app.inspect().tools.map((t) => `${t.name} (${t.owner.class.name}.${t.owner.method})`));
  });
});
