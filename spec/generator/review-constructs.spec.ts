import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { metadata } from '../fixtures/generate-project/src/mcp-metadata';
import { ReviewModule } from '../fixtures/generate-project/src/review';

// Constructs a user writes that the first version of the generator got wrong: tools inherited from a base class,
// classes of the same name in two files, getters on DTOs, destructured parameters, template literal types.

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

describe('generated types: inheritance, namesakes, getters, destructuring, template literals', () => {
  let client: TestClient;
  let schemas: Record<string, Record<string, any>>;

  beforeAll(async () => {
    client = await createTestClient(ReviewModule, { metadata });
    const { tools } = await client.listTools();
    schemas = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema as Record<string, any>]));
  });
  afterAll(() => client?.close());

  it('serves tools inherited from a base class, by a class with and without tools of its own', async () => {
    expect(schemas.ping.properties.word).toEqual({ type: 'string', enum: ['ping', 'pong'] });
    expect(schemas.audit.properties.level).toEqual({ type: 'string', enum: ['info', 'warn'] });
    expect(text(await client.callTool({ name: 'ping', arguments: { word: 'ping' } }))).toBe('pong');
    expect(text(await client.callTool({ name: 'audit', arguments: { level: 'warn' } }))).toBe('audit warn');
    expect((await client.callTool({ name: 'audit', arguments: { level: 'debug' } })).isError).toBe(true);
  });

  it('tells classes of the same name in two files apart: each nested DTO has its own schema and class', async () => {
    const { envelope, parcel } = schemas.post.properties;
    expect(envelope.properties.to.properties).toEqual({ line1: { type: 'string' } });
    expect(envelope.properties.from.properties).toEqual({ line1: { type: 'string' } });
    expect(envelope.required).toEqual(['to']);
    // The non-exported Address of parcels.ts: its own property, never an exported namesake's.
    expect(parcel.properties.to).toEqual({ type: 'object', properties: { zip: { type: 'number' } }, required: ['zip'], additionalProperties: false });
    const result = await client.callTool({
      name: 'post',
      arguments: { envelope: { to: { line1: 'a' }, from: { line1: 'b' } }, parcel: { to: { zip: 1234 } } },
    });
    expect(JSON.parse(text(result))).toEqual({ to: 'Address', from: 'Address', parcel: 'Object', zip: 1234 });
    expect((await client.callTool({ name: 'post', arguments: { envelope: { to: { line1: 'a' } }, parcel: { to: { street: 'x' } } } })).isError).toBe(true);
  });

  it('skips a `this` parameter (erased by compilation)', async () => {
    expect(schemas.whoami.properties).toEqual({ name: { type: 'string', enum: ['alpha', 'beta'] } });
    expect(text(await client.callTool({ name: 'whoami', arguments: { name: 'beta' } }))).toBe('ReviewTools beta');
  });

  it('leaves a getter out of a DTO schema (it is computed, and an instance cannot take it)', async () => {
    expect(schemas.badge).toEqual({
      type: 'object',
      properties: { name: { type: 'string' }, note: { type: 'string' } },
      required: ['name'],
      additionalProperties: false,
    });
    expect(text(await client.callTool({ name: 'badge', arguments: { name: 'x', note: 'n' } }))).toBe('[x] n');
    // Not a property a client can set: the lenient mode drops it, and the getter still computes the value.
    expect(text(await client.callTool({ name: 'badge', arguments: { name: 'x', label: 'y' } }))).toBe('[x]');
  });

  it('leaves private, protected, #private and function-typed members out of a DTO schema', async () => {
    expect(Object.keys(schemas.badge.properties)).toEqual(['name', 'note']);
    const sneaky = await client.callTool({ name: 'badge', arguments: { name: 'x', secret: 'changed', level: 9, onChange: 1 } });
    expect(text(sneaky)).toBe('[x]');
  });

  it('finds component decorators imported under another name', async () => {
    expect(schemas.renamed.properties.side).toEqual({ type: 'string', enum: ['left', 'right'] });
    expect(text(await client.callTool({ name: 'renamed', arguments: { side: 'left' } }))).toBe('left');
  });

  it('describes a destructured @Args() parameter from its type', async () => {
    expect(schemas.find.required).toEqual(['text', 'sort']);
    expect(schemas.find.properties.sort).toEqual({ type: 'string', enum: ['newest', 'oldest'] });
    expect(text(await client.callTool({ name: 'find', arguments: { text: 'mcp', sort: 'newest' } }))).toBe('mcp newest');
    expect((await client.callTool({ name: 'find', arguments: { text: 'mcp', sort: 'random' } })).isError).toBe(true);
  });

  it('advertises defaults the compiler reads: constants, escaped strings, enum members', async () => {
    expect(schemas.page.properties).toEqual({
      limit: { type: 'number', default: 5 },
      note: { type: 'string', default: 'it\'s\n"quoted"' },
      priority: { type: 'string', enum: ['low', 'high'], default: 'high' },
    });
    expect(schemas.page.required).toBeUndefined();
    expect(JSON.parse(text(await client.callTool({ name: 'page', arguments: {} })))).toEqual({ limit: 5, note: 'it\'s\n"quoted"', priority: 'high' });
  });

  it('builds the Dates inside interfaces, type literals, Records and tuples, as a Date parameter is built', async () => {
    expect(schemas.span.properties.range.properties.from).toEqual({ type: 'string', format: 'date-time' });
    const result = await client.callTool({
      name: 'span',
      arguments: {
        range: { from: '2026-01-01T00:00:00Z', to: '2026-01-03T00:00:00Z', marks: { a: '2026-01-02T00:00:00Z' } },
        pair: ['2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z'],
      },
    });
    expect(JSON.parse(text(result))).toEqual({ from: 'Date', to: 'Date', marks: ['Date'], pair: ['Date', 'string'], days: 2 });
    const open = await client.callTool({ name: 'span', arguments: { range: { from: '2026-01-01T00:00:00Z', to: null }, pair: ['2026-01-01T00:00:00Z', 'x'] } });
    expect(JSON.parse(text(open))).toMatchObject({ from: 'Date', to: 'null', marks: [], days: null });
    expect((await client.callTool({ name: 'span', arguments: { range: { from: 'soon' }, pair: ['2026-01-01T00:00:00Z', 'x'] } })).isError).toBe(true);
  });

  it('describes a generic class instantiation with its type argument', async () => {
    expect(schemas.paged.properties.page.properties.items).toEqual({
      type: 'array',
      items: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false },
    });
    expect(text(await client.callTool({ name: 'paged', arguments: { page: { items: [{ title: 'a' }, { title: 'b' }], total: 2 } } }))).toBe('a,b of 2');
    expect((await client.callTool({ name: 'paged', arguments: { page: { items: [{ name: 'a' }], total: 1 } } })).isError).toBe(true);
  });

  it('describes Record<number, T> as numeric keys (it refused every non-empty object)', async () => {
    expect(schemas.paged.properties.byNumber).toEqual({ type: 'object', additionalProperties: { type: 'string' }, propertyNames: { pattern: expect.any(String) } });
    const page = { items: [], total: 0 };
    expect(text(await client.callTool({ name: 'paged', arguments: { page, byNumber: { 1: 'one', '2.5': 'x' } } }))).toBe(' of 0 {"1":"one","2.5":"x"}');
    expect((await client.callTool({ name: 'paged', arguments: { page, byNumber: { one: 'x' } } })).isError).toBe(true);
    expect((await client.callTool({ name: 'paged', arguments: { page, byNumber: { 1: 2 } } })).isError).toBe(true);
  });

  it('describes template literal types as strings with a pattern, and validates them', async () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    const check = ajv.compile(schemas.code);
    expect(schemas.code.properties.code).toEqual({ type: 'string', pattern: expect.any(String) });
    for (const [args, ok] of [
      [{ code: 'id-12', size: 's-true' }, true],
      [{ code: 'id--1.5', size: 'm-false' }, true],
      [{ code: 'id-x', size: 's-true' }, false],
      [{ code: 'id-1', size: 'l-true' }, false],
      [{ code: 7, size: 's-true' }, false],
    ] as const) {
      expect(check(args)).toBe(ok);
      expect(!(await client.callTool({ name: 'code', arguments: args as never })).isError).toBe(ok);
    }
  });
});

describe('generate on small projects (the CLI as a process)', () => {
  const root = path.resolve(__dirname, '..', '..');
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const run = (args: string[]) =>
    new Promise<{ stdout: string; stderr: string }>((resolve, reject) =>
      execFile(process.execPath, ['-r', './spec/support/register.js', ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve({ stdout, stderr }),
      ),
    );
  /** A project beside the fixture (its tsconfig's paths reach lib/), with these files under src/. */
  const project = (name: string, files: Record<string, string>) => {
    const dir = path.join(root, 'spec', 'fixtures', `tmp-generate-${name}-${process.pid}`);
    dirs.push(dir);
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    cpSync(path.join(root, 'spec', 'fixtures', 'generate-project', 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
    for (const [file, content] of Object.entries(files)) writeFileSync(path.join(dir, 'src', file), content);
    return dir;
  };

  it('describes URL, Buffer and Uint8Array as any value with a warning, not as their dozens of members', async () => {
    const dir = project('library', {
      'tools.ts': `import { Param, Tool } from 'mcp-reflect';\nexport class Links {\n  @Tool()\n  open(@Param() url: URL, @Param() data: Buffer, @Param() bytes: Uint8Array): string {\n    return String(url);\n  }\n}\n`,
    });
    const { stderr } = await run(['lib/cli/main.ts', 'generate', '--project', path.join(dir, 'tsconfig.json'), '--out', path.join(dir, 'types.json')]);
    const params = JSON.parse(readFileSync(path.join(dir, 'types.json'), 'utf8')).classes[0].methods.open.params;
    expect(params.map((p: { schema: unknown }) => p.schema)).toEqual([{}, {}, {}]);
    expect(stderr).toContain("'url': URL has no JSON form");
    expect(stderr).toContain("'data': Buffer");
    expect(stderr).toContain("'bytes': Uint8Array");
  }, 120_000);

  it('lists the values of a literal union in the order the source writes them, through aliases and in DTOs', async () => {
    const dir = project('order', {
      'tools.ts': `import { Args, Param, Tool } from 'mcp-reflect';\ntype Size = 'small' | ('large' | 'medium');\nexport class Order {\n  pick!: 3 | 1 | 2;\n}\nexport class Shop {\n  @Tool()\n  choose(@Param() style: 'zeta' | 'alpha' | 'mid', @Param() size: Size): string {\n    return style + size;\n  }\n  @Tool()\n  order(@Args() order: Order): number {\n    return order.pick;\n  }\n}\n`,
    });
    await run(['lib/cli/main.ts', 'generate', '--project', path.join(dir, 'tsconfig.json'), '--out', path.join(dir, 'types.json')]);
    const classes = JSON.parse(readFileSync(path.join(dir, 'types.json'), 'utf8')).classes;
    const shop = classes.find((c: { name: string }) => c.name === 'Shop');
    expect(shop.methods.choose.params.map((p: { schema: { enum: unknown[] } }) => p.schema.enum)).toEqual([['zeta', 'alpha', 'mid'], ['small', 'large', 'medium']]);
    expect(classes.find((c: { name: string }) => c.name === 'Order').properties.pick.schema.enum).toEqual([3, 1, 2]);
  }, 120_000);

  it('leaves @Ctx() parameters out: no warning, no entry, and no import of the library\'s Context class', async () => {
    const dir = project('ctx', {
      'tools.ts': `import { Ctx, Param, Tool, type Context } from 'mcp-reflect';\nexport class Greeter {\n  @Tool()\n  greet(@Param() name: string, @Ctx() ctx: Context): string {\n    return name + ctx.requestId;\n  }\n}\n`,
    });
    const out = path.join(dir, 'types.ts');
    const { stderr } = await run(['lib/cli/main.ts', 'generate', '--project', path.join(dir, 'tsconfig.json'), '--out', out]);
    expect(stderr).not.toContain('no JSON form');
    const written = readFileSync(out, 'utf8');
    expect(written).not.toContain('Context');
    expect(written).toContain('"fingerprint": "greet(name, ctx)"');
    expect(written.match(/"index": \d/g)).toEqual(['"index": 0']);
  }, 120_000);

  it('keeps class references through an import cycle: the file defining the tools passes metadata to forRoot()', async () => {
    const dir = project('cycle', {
      'app.module.ts': [
        `import { Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';`,
        `import { metadata } from './mcp-metadata';`,
        `@Injectable()`,
        `export class CycleTools {`,
        `  @Tool()`,
        `  pick(@Param() side: 'left' | 'right'): string {`,
        `    return side;`,
        `  }`,
        `}`,
        `@Module({ imports: [McpModule.forRoot({ name: 'cycle', version: '1.0.0', metadata })], providers: [CycleTools] })`,
        `export class AppModule {}`,
        ``,
      ].join('\n'),
    });
    await run(['lib/cli/main.ts', 'generate', '--project', path.join(dir, 'tsconfig.json')]);
    writeFileSync(
      path.join(dir, 'main.ts'),
      [
        `import 'reflect-metadata';`,
        `import { createTestClient } from 'mcp-reflect/testing';`,
        `import { AppModule, CycleTools } from './src/app.module';`,
        `import { metadata } from './src/mcp-metadata';`,
        `void (async () => {`,
        `  const client = await createTestClient(AppModule);`,
        `  const { tools } = await client.listTools();`,
        `  const ref = metadata.classes.find((c) => c.name === 'CycleTools')?.ref === CycleTools;`,
        `  process.stdout.write(JSON.stringify({ ref, side: tools[0].inputSchema.properties }));`,
        `  await client.close();`,
        `})();`,
        ``,
      ].join('\n'),
    );
    const { stdout } = await run([path.join(dir, 'main.ts')]);
    expect(JSON.parse(stdout)).toEqual({ ref: true, side: { side: { type: 'string', enum: ['left', 'right'] } } });
  }, 120_000);
});
