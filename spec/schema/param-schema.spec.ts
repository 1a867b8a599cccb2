import 'reflect-metadata';
import { IsInt, IsString, Min, ValidateNested } from 'class-validator';
import { Type } from 'class-transformer';
import { Context, Ctx, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

enum Color {
  Red = 'red',
  Green = 'green',
}

enum Level {
  Low,
  High,
}

class Point {
  @IsInt() x!: number;
  @IsInt() y!: number;
}

class LineItem {
  @IsString() sku!: string;
  @IsInt() @Min(1) qty!: number;
}

class Address {
  @IsString() city!: string;
  @ValidateNested() @Type(() => Point) location!: Point;
}

const received: Record<string, unknown[]> = {};
const record = (tool: string, ...args: unknown[]) => {
  received[tool] = args;
  return 'ok';
};

@Injectable()
class ParamTools {
  @Tool()
  reflected(@Param() s: string, @Param() n: number, @Param() b: boolean, @Param() when: Date) {
    return record('reflected', s, n, b, when);
  }

  @Tool()
  described(
    @Param('city', { description: 'City name' }) city: string,
    @Param('note', { optional: true }) note: string,
    @Param('days', { default: 3, description: 'How many days' }) days: number,
    @Param('verbose', { default: false }) verbose: boolean,
  ) {
    return record('described', city, note, days, verbose);
  }

  @Tool()
  defaults(
    @Param('since', { default: '2026-01-01T00:00:00Z' }) since: Date,
    @Param('origin', { type: Point, default: { x: 0, y: 0 } }) origin: Point,
  ) {
    return record('defaults', since, origin);
  }

  @Tool()
  typed(
    @Param('count', { type: 'integer' }) count: number,
    @Param('tags', { type: [String] }) tags: string[],
    @Param('items', { type: [LineItem] }) items: LineItem[],
    @Param('address', { type: Address }) address: Address,
  ) {
    return record('typed', count, tags, items, address);
  }

  @Tool()
  reflectedDto(@Param() point: Point) {
    return record('reflectedDto', point);
  }

  @Tool()
  enums(
    @Param('color', { enum: Color }) color: Color,
    @Param('level', { enum: Level }) level: Level,
    @Param('size', { enum: ['s', 'm', 'l'] }) size: string,
    @Param('tags', { type: [String], enum: ['a', 'b'] }) tags: string[],
  ) {
    return record('enums', color, level, size, tags);
  }

  @Tool()
  merged(
    @Param('n', { description: 'from option', schema: { type: 'integer', minimum: 0, description: 'from schema' } }) n: number,
    @Param('code', { schema: { pattern: '^[A-Z]{3}$', examples: ['ABC'] } }) code: string,
    @Param('ratio', { default: 0.5, schema: { default: 1, maximum: 1 } }) ratio: number,
  ) {
    return record('merged', n, code, ratio);
  }

  @Tool()
  withContext(@Ctx() ctx: Context, @Param() q: string) {
    return record('withContext', ctx instanceof Context, q);
  }

  @Tool()
  onlyContext(@Ctx() ctx: Context) {
    return record('onlyContext', ctx instanceof Context);
  }

  @Tool()
  nothing() {
    return record('nothing');
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'param-schema', version: '1.0.0' })], providers: [ParamTools] })
class ParamModule {}

const EMPTY = { type: 'object', properties: {}, additionalProperties: false };

async function schemas(client: TestClient): Promise<Record<string, unknown>> {
  const { tools } = await client.listTools();
  return Object.fromEntries(tools.map((t) => [t.name, t.inputSchema]));
}

describe.each(['2025-11-25', '2026-07-28'] as const)('@Param input schemas (protocol %s)', (protocolVersion) => {
  let client: TestClient;
  let listed: Record<string, unknown>;

  beforeAll(async () => {
    client = await createTestClient(ParamModule, { protocolVersion });
    listed = await schemas(client);
  });
  afterAll(() => client.close());

  it('maps reflected String, Number, Boolean and Date', () => {
    expect(listed.reflected).toEqual({
      type: 'object',
      properties: {
        s: { type: 'string' },
        n: { type: 'number' },
        b: { type: 'boolean' },
        when: { type: 'string', format: 'date-time' },
      },
      required: ['s', 'n', 'b', 'when'],
      additionalProperties: false,
    });
  });

  it('adds description, leaves optional and defaulted parameters out of required, advertises the default', () => {
    expect(listed.described).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        note: { type: 'string' },
        days: { type: 'number', description: 'How many days', default: 3 },
        verbose: { type: 'boolean', default: false },
      },
      required: ['city'],
      additionalProperties: false,
    });
  });

  it('advertises defaults of Date and DTO parameters as JSON', () => {
    expect(listed.defaults).toEqual({
      type: 'object',
      properties: {
        since: { type: 'string', format: 'date-time', default: '2026-01-01T00:00:00Z' },
        origin: {
          type: 'object',
          properties: { x: { type: 'integer' }, y: { type: 'integer' } },
          required: ['x', 'y'],
          additionalProperties: false,
          default: { x: 0, y: 0 },
        },
      },
      additionalProperties: false,
    });
  });

  it("honours the type option: 'integer', [String], [ItemDto] and a DTO class, inlined", () => {
    const lineItem = {
      type: 'object',
      properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } },
      required: ['sku', 'qty'],
      additionalProperties: false,
    };
    const point = {
      type: 'object',
      properties: { x: { type: 'integer' }, y: { type: 'integer' } },
      required: ['x', 'y'],
      additionalProperties: false,
    };
    expect(listed.typed).toEqual({
      type: 'object',
      properties: {
        count: { type: 'integer' },
        tags: { type: 'array', items: { type: 'string' } },
        items: { type: 'array', items: lineItem },
        address: {
          type: 'object',
          properties: { city: { type: 'string' }, location: point },
          required: ['city', 'location'],
          additionalProperties: false,
        },
      },
      required: ['count', 'tags', 'items', 'address'],
      additionalProperties: false,
    });
    expect(listed.reflectedDto).toEqual({
      type: 'object',
      properties: { point },
      required: ['point'],
      additionalProperties: false,
    });
  });

  it('maps string enums, numeric enums without their reverse mapping, and value lists', () => {
    expect(listed.enums).toEqual({
      type: 'object',
      properties: {
        color: { type: 'string', enum: ['red', 'green'] },
        level: { type: 'integer', enum: [0, 1] },
        size: { type: 'string', enum: ['s', 'm', 'l'] },
        tags: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
      },
      required: ['color', 'level', 'size', 'tags'],
      additionalProperties: false,
    });
  });

  it('merges the schema option last, so its keywords win', () => {
    expect(listed.merged).toEqual({
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0, description: 'from schema' },
        code: { type: 'string', pattern: '^[A-Z]{3}$', examples: ['ABC'] },
        ratio: { type: 'number', default: 1, maximum: 1 },
      },
      required: ['n', 'code'],
      additionalProperties: false,
    });
  });

  it('never puts @Ctx() in the schema', () => {
    expect(listed.withContext).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      additionalProperties: false,
    });
    expect(listed.onlyContext).toEqual(EMPTY);
  });

  it('gives a tool without parameters an empty object schema', () => {
    expect(listed.nothing).toEqual(EMPTY);
  });
});

describe('@Param values the method receives', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await createTestClient(ParamModule);
  });
  afterAll(() => client.close());

  async function call(name: string, args: Record<string, unknown>): Promise<unknown[]> {
    delete received[name];
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    return received[name];
  }

  it('receives primitives as sent and a Date instance for a date-time string', async () => {
    const [s, n, b, when] = await call('reflected', { s: 'x', n: 1.5, b: true, when: '2026-01-31T09:30:00Z' });
    expect([s, n, b]).toEqual(['x', 1.5, true]);
    expect(when).toBeInstanceOf(Date);
    expect((when as Date).toISOString()).toBe('2026-01-31T09:30:00.000Z');
  });

  it('rejects a string that is not a date-time for a Date parameter', async () => {
    const result = await client.callTool({ name: 'reflected', arguments: { s: 'x', n: 1, b: true, when: 'yesterday' } });
    expect(result).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: 'Invalid arguments for tool reflected: when: must be a valid ISO 8601 date-time (e.g. 2026-01-31T09:30:00Z)',
        },
      ],
    });
  });

  it('applies defaults when absent, passes undefined for an absent optional, and keeps sent values', async () => {
    expect(await call('described', { city: 'Paris' })).toEqual(['Paris', undefined, 3, false]);
    expect(await call('described', { city: 'Oslo', note: 'n', days: 7, verbose: true })).toEqual(['Oslo', 'n', 7, true]);
  });

  it('converts an applied default like a sent value: a Date, a DTO instance', async () => {
    const [since, origin] = await call('defaults', {});
    expect(since).toBeInstanceOf(Date);
    expect((since as Date).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(origin).toBeInstanceOf(Point);
    expect(origin).toEqual({ x: 0, y: 0 });
  });

  it('builds DTO instances for DTO and [ItemDto] parameters, nested ones included', async () => {
    const [count, tags, items, address] = await call('typed', {
      count: 2,
      tags: ['a', 'b'],
      items: [{ sku: 'A1', qty: 1 }, { sku: 'B2', qty: 4 }],
      address: { city: 'Lyon', location: { x: 1, y: 2 } },
    });
    expect(count).toBe(2);
    expect(tags).toEqual(['a', 'b']);
    expect(items).toEqual([{ sku: 'A1', qty: 1 }, { sku: 'B2', qty: 4 }]);
    for (const item of items as unknown[]) expect(item).toBeInstanceOf(LineItem);
    expect(address).toBeInstanceOf(Address);
    expect((address as Address).location).toBeInstanceOf(Point);
    expect(address).toEqual({ city: 'Lyon', location: { x: 1, y: 2 } });

    const [point] = await call('reflectedDto', { point: { x: 3, y: 4 } });
    expect(point).toBeInstanceOf(Point);
    expect(point).toEqual({ x: 3, y: 4 });
  });

  it("rejects a non-integer for type 'integer' and a value outside an enum", async () => {
    const typed = await client.callTool({
      name: 'typed',
      arguments: { count: 1.5, tags: [], items: [], address: { city: 'x', location: { x: 0, y: 0 } } },
    });
    expect(typed.content).toEqual([{ type: 'text', text: 'Invalid arguments for tool typed: count: must be an integer' }]);
    const enums = await client.callTool({ name: 'enums', arguments: { color: 'blue', level: 'Low', size: 'm', tags: ['c'] } });
    expect(enums.content).toEqual([
      {
        type: 'text',
        text:
          'Invalid arguments for tool enums: color: must be one of: "red", "green"; level: must be an integer; ' +
          'level: must be one of: 0, 1; tags[0]: must be one of: "a", "b"',
      },
    ]);
  });

  it('accepts enum values, numeric ones as numbers', async () => {
    expect(await call('enums', { color: 'green', level: 1, size: 'l', tags: ['b', 'a'] })).toEqual(['green', 1, 'l', ['b', 'a']]);
  });

  it('injects the Context for @Ctx() wherever it stands', async () => {
    expect(await call('withContext', { q: 'hi' })).toEqual([true, 'hi']);
    expect(await call('onlyContext', {})).toEqual([true]);
    expect(await call('nothing', {})).toEqual([]);
  });
});
