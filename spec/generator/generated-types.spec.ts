import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { Args, BootstrapErrorCode, Injectable, McpFactory, McpModule, Module, Param, Tool, type GeneratedMetadata } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { AppModule } from '../fixtures/generate-project/src/app.module';
import { metadata } from '../fixtures/generate-project/src/mcp-metadata';
import { TypedTools } from '../fixtures/generate-project/src/tools';

// The fixture's src/mcp-metadata.ts is what `mcp-reflect generate` writes for it (generate.cli.spec checks it
// is current), so these specs see the generator's real output through the official client.

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

describe('generated types (fixture project, official client)', () => {
  let client: TestClient;
  let schemas: Record<string, Record<string, any>>;

  beforeAll(async () => {
    client = await createTestClient(AppModule, { metadata });
    const { tools } = await client.listTools();
    schemas = Object.fromEntries(tools.map((t) => [t.name, t.inputSchema as Record<string, any>]));
  });
  afterAll(() => client.close());

  it('advertises literal unions as enums, defaults and `?` as optional, JSDoc as descriptions', async () => {
    expect(schemas.greet).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'who to greet' },
        mode: { type: 'string', enum: ['fast', 'slow'], description: 'how fast' },
        times: { type: 'number', description: 'how often', default: 2 },
        loud: { type: 'boolean' },
      },
      required: ['name', 'mode'],
      additionalProperties: false,
    });
    const { tools } = await client.listTools();
    expect(tools.find((t) => t.name === 'greet')?.description).toBe('Greets someone.');
  });

  it('refuses a value outside a literal union and applies the default', async () => {
    const refused = await client.callTool({ name: 'greet', arguments: { name: 'Ada', mode: 'banana' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toContain('mode');
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', mode: 'fast' } }))).toBe('Hello Ada (fast) Hello Ada (fast)');
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', mode: 'slow', times: 1, loud: true } }))).toBe('Hello Ada (slow)!');
  });

  it('describes type aliases, nullable types, interfaces, Records, Dates, enum arrays, unions and tuples', () => {
    expect(schemas.convert.properties).toEqual({
      value: { type: 'number' },
      unit: { type: 'string', enum: expect.arrayContaining(['metric', 'imperial']) },
      precision: { type: ['number', 'null'] },
    });
    expect(schemas.where.properties.place).toEqual({
      type: 'object',
      properties: { city: { type: 'string', description: 'City name' }, country: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(schemas.where.properties.scores).toEqual({ type: 'object', additionalProperties: { type: 'number' } });
    expect(schemas.where.properties.when).toEqual({ type: 'string', format: 'date-time' });
    expect(schemas.where.properties.levels).toEqual({ type: 'array', items: { type: 'string', enum: ['low', 'high'] } });
    expect(schemas.mixed.properties).toEqual({
      value: { anyOf: [{ type: 'string' }, { type: 'number' }] },
      items: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], minItems: 2, maxItems: 2 },
    });
  });

  it('merges DTO types with class-validator rules: undecorated properties kept, nested classes built, JSDoc examples', () => {
    const save = schemas.save;
    expect(save.required).toEqual(['name', 'age', 'address']);
    expect(save.properties.age).toEqual({ type: 'integer', minimum: 0, maximum: 150 });
    expect(save.properties.nickname).toEqual({ type: 'string', description: 'A nickname, without any decorator: the generator still knows it.' });
    expect(save.properties.address.properties.street).toEqual({ type: 'string', description: 'Street and number', examples: ['Main St 1'], minLength: 3 });
    expect(save.properties.address.properties.line).toEqual({ type: 'string', deprecated: true });
    expect(save.properties.tags).toEqual({ type: 'object', additionalProperties: { type: 'string' }, default: {} });
    expect(save.properties.birthday).toEqual({ type: ['string', 'null'], format: 'date-time', default: null });
  });

  it('builds nested DTO instances and Dates from the generated types; nullable stays null', async () => {
    const result = await client.callTool({
      name: 'save',
      arguments: { name: 'A', nickname: 'Al', age: 3, address: { street: 'Main' }, previous: [{ street: 'Old St' }], birthday: '2000-01-01T00:00:00Z' },
    });
    expect(JSON.parse(text(result))).toEqual({
      name: 'A',
      nickname: 'Al',
      street: 'Main',
      addressIsInstance: 'Address',
      previousIsInstance: 'Address',
      birthdayIsDate: true,
      priority: 'low',
      tags: {},
    });
    const none = await client.callTool({ name: 'save', arguments: { name: 'B', age: 4, address: { street: 'Elm' }, birthday: null } });
    expect(JSON.parse(text(none))).toMatchObject({ nickname: null, birthdayIsDate: false });
    const bad = await client.callTool({ name: 'save', arguments: { name: 'B', age: 4, address: { street: 'x' } } });
    expect(bad.isError).toBe(true);
    expect(text(bad)).toContain('street');
  });

  it('takes @Args() typed by a type alias (no class): the generated object schema, validated, passed as is', async () => {
    expect(schemas.search).toEqual({
      type: 'object',
      properties: {
        text: { type: 'string', description: 'Words to look for' },
        limit: { type: 'number' },
        sort: { type: 'string', enum: expect.arrayContaining(['newest', 'oldest']) },
      },
      required: ['text', 'sort'],
      additionalProperties: false,
    });
    expect(text(await client.callTool({ name: 'search', arguments: { text: 'mcp', sort: 'oldest' } }))).toBe('mcp (oldest, 10)');
    const refused = await client.callTool({ name: 'search', arguments: { text: 'mcp', sort: 'random' } });
    expect(refused.isError).toBe(true);
  });

  it('every advertised schema compiles with an independent JSON Schema 2020-12 validator', () => {
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const schema of Object.values(schemas)) expect(() => ajv.compile(schema)).not.toThrow();
  });
});

@Module({
  imports: [McpModule.forRoot({ name: 'generated-strict', version: '1.0.0', strictInputValidation: true })],
  providers: [TypedTools],
})
class StrictModule {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const noise: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 5 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.constantFrom('fast', 'slow', 'metric', 'imperial', 'banana', '', '2', 'x'),
  fc.constant([] as Json[]),
  fc.constant({} as Json),
  fc.dictionary(fc.constantFrom('a', 'b'), fc.oneof(fc.integer(), fc.string({ maxLength: 2 })), { maxKeys: 2 }),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 2 })), { maxLength: 3 }),
);
const often = <T extends Json>(valid: fc.Arbitrary<T>) => fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: noise, weight: 1 });
const ARGUMENTS: Record<string, fc.Arbitrary<Record<string, Json>>> = {
  greet: fc.record(
    { name: often(fc.string({ maxLength: 4 })), mode: often(fc.constantFrom('fast', 'slow')), times: often(fc.integer({ min: 0, max: 3 })), loud: often(fc.boolean()) },
    { requiredKeys: [] },
  ),
  convert: fc.record(
    { value: often(fc.double({ noNaN: true, noDefaultInfinity: true, min: -5, max: 5 })), unit: often(fc.constantFrom('metric', 'imperial')), precision: often(fc.oneof(fc.constant(null), fc.integer({ min: 0, max: 3 }))) },
    { requiredKeys: [] },
  ),
  where: fc.oneof(
    {
      weight: 2,
      arbitrary: fc.record({
        place: fc.record({ city: fc.string({ maxLength: 3 }), country: fc.string({ maxLength: 2 }) }, { requiredKeys: ['city'] }),
        scores: fc.dictionary(fc.constantFrom('a', 'b', 'c'), fc.integer({ min: -2, max: 9 }), { maxKeys: 3 }),
        when: fc.constantFrom('2020-01-01T00:00:00Z', '2027-12-31T23:59:59.000Z'),
        levels: fc.array(fc.constantFrom('low', 'high'), { maxLength: 3 }),
      }),
    },
    {
      weight: 3,
      arbitrary: fc.record(
        {
          place: often(fc.record({ city: often(fc.string({ maxLength: 3 })), country: often(fc.string({ maxLength: 2 })) }, { requiredKeys: [] })),
          scores: often(fc.dictionary(fc.constantFrom('a', 'b', 'c'), often(fc.integer({ min: -2, max: 9 })), { maxKeys: 3 })),
          when: often(fc.constantFrom('2020-01-01T00:00:00Z', 'yesterday', '2020-13-01T00:00:00Z')),
          levels: often(fc.array(fc.constantFrom('low', 'high', 'medium'), { maxLength: 3 })),
        },
        { requiredKeys: [] },
      ),
    },
  ),
  mixed: fc.record(
    { value: often(fc.oneof(fc.string({ maxLength: 2 }), fc.integer())), items: often(fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 3 })), pair: often(fc.tuple(fc.string({ maxLength: 2 }), fc.integer())) },
    { requiredKeys: [] },
  ),
};

describe('strict validation agrees with the generated schemas (property)', () => {
  let client: TestClient;
  const reference: Record<string, (value: unknown) => boolean> = {};

  beforeAll(async () => {
    client = await createTestClient(StrictModule, { metadata });
    const ajv = new Ajv2020({ strict: false });
    addFormats(ajv);
    for (const tool of (await client.listTools()).tools) reference[tool.name] = ajv.compile(tool.inputSchema) as (value: unknown) => boolean;
  });
  afterAll(() => client.close());

  it.each(Object.keys(ARGUMENTS))('%s: the server accepts exactly what the schema accepts', async (name) => {
    const seen = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(ARGUMENTS[name], async (input) => {
        const args = JSON.parse(JSON.stringify(input)) as Record<string, Json>;
        const result = await client.callTool({ name, arguments: args });
        const accepted = !result.isError;
        if (!accepted) expect(text(result).startsWith(`Invalid arguments for tool ${name}: `)).toBe(true);
        seen[accepted ? 'accepted' : 'rejected']++;
        expect(accepted).toBe(reference[name](args));
      }),
      { numRuns: 120 },
    );
    expect(seen.accepted).toBeGreaterThan(5);
    expect(seen.rejected).toBeGreaterThan(5);
  });
});

@Injectable()
class DriftTools {
  @Tool()
  echo(@Param('word', { description: 'the word' }) word: string, @Param() times = 1): string {
    return word.repeat(times);
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'drift', version: '1.0.0' })], providers: [DriftTools] })
class DriftModule {}

const driftEntry = (fingerprint: string): GeneratedMetadata => ({
  version: 1,
  generator: 'mcp-reflect@test',
  classes: [
    {
      name: 'DriftTools',
      file: 'src/drift.ts',
      ref: DriftTools,
      methods: {
        echo: {
          fingerprint,
          params: [
            { name: 'word', index: 0, schema: { type: 'string', enum: ['a', 'b'] }, description: 'generated text' },
            { name: 'times', index: 1, schema: { type: 'number' }, optional: true, default: 1 },
          ],
        },
      },
    },
  ],
});

describe('drift between the generated file and the running classes is never silent', () => {
  it('a signature that changed since generation stops the bootstrap, naming both and the fix', async () => {
    const failure = await McpFactory.create(DriftModule, { metadata: driftEntry('echo(word)') }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: BootstrapErrorCode.GeneratedMetadataStale });
    expect((failure as Error).message).toBe(
      "Cannot build tool 'echo' (DriftTools.echo): the generated metadata is stale. It was generated from src/drift.ts for echo(word), " +
        'but the running method, echo(word, times=) (names as compiled), differs: it has 2 parameters, expected 1.\n' +
        'Fix: run `npx mcp-reflect generate`, then build (and bundle) again, so the file and the running code come from the same sources ' +
        "(`mcp-reflect generate --check` in CI fails a stale file). Names are not compared: bundlers rename parameters, and the file's names are advertised.",
    );
  });

  it('a component class the file does not know stops the bootstrap', async () => {
    const failure = await McpFactory.create(DriftModule, { metadata: { version: 1, generator: 'x', classes: [] } }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: BootstrapErrorCode.GeneratedMetadataStale });
    expect((failure as Error).message).toContain('DriftTools');
  });

  it('something that is not a generated module, or a newer format, is refused', async () => {
    await expect(McpFactory.create(DriftModule, { metadata: {} as never })).rejects.toMatchObject({ code: BootstrapErrorCode.GeneratedMetadataInvalid });
    await expect(McpFactory.create(DriftModule, { metadata: { version: 9, generator: 'x', classes: [] } as never })).rejects.toThrow(/format 9/);
  });

  it('a current entry applies, and explicit decorator options still win over it', async () => {
    const client = await createTestClient(DriftModule, { metadata: driftEntry('echo(word, times=)') });
    const { tools } = await client.listTools();
    expect(tools[0].inputSchema.properties).toEqual({
      word: { type: 'string', enum: ['a', 'b'], description: 'the word' },
      times: { type: 'number', default: 1 },
    });
    await client.close();
  });
});

interface Window {
  from: Date;
  label?: string;
}

@Injectable()
class WindowTools {
  @Tool()
  span(@Args() window: Window): string {
    return `${window.from instanceof Date ? 'Date' : typeof window.from} ${window.from.toISOString()}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'window', version: '1.0.0' })], providers: [WindowTools] })
class WindowModule {}

describe('@Args() typed by an interface with a Date', () => {
  it('converts the Date inside, as a DTO would', async () => {
    const client = await createTestClient(WindowModule, {
      metadata: {
        version: 1,
        generator: 'mcp-reflect@test',
        classes: [
          {
            name: 'WindowTools',
            file: 'src/window.ts',
            ref: WindowTools,
            methods: {
              span: {
                fingerprint: 'span(window)',
                params: [
                  {
                    name: 'window',
                    index: 0,
                    schema: {
                      type: 'object',
                      properties: { from: { type: 'string', format: 'date-time' }, label: { type: 'string' } },
                      required: ['from'],
                      additionalProperties: false,
                    },
                  },
                ],
              },
            },
          },
        ],
      },
    });
    expect(text(await client.callTool({ name: 'span', arguments: { from: '2027-01-02T03:04:05.000Z' } }))).toBe('Date 2027-01-02T03:04:05.000Z');
    await client.close();
  });
});
