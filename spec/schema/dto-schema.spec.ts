import 'reflect-metadata';
import {
  ArrayMaxSize,
  ArrayMinSize,
  ArrayNotEmpty,
  ArrayUnique,
  Equals,
  IsAlpha,
  IsBoolean,
  IsDate,
  IsDateString,
  IsDefined,
  IsEmail,
  IsEnum,
  IsIn,
  IsInt,
  IsIP,
  IsNegative,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsPositive,
  IsString,
  IsUrl,
  IsUUID,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import { Args, Description, Field, Injectable, McpModule, Module, Tool, type ServerLogger } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

enum Color {
  Red = 'red',
  Green = 'green',
}

enum Priority {
  Low = 1,
  High = 2,
}

/** One property per entry of lib/schema/constraint-map.ts (plus isOptional and isDefined). */
class AllConstraints {
  @IsString() text!: string;
  @IsNumber() amount!: number;
  @IsInt() count!: number;
  @IsBoolean() flag!: boolean;
  @IsDate() @Type(() => Date) at!: Date;
  @IsEnum(Color) color!: Color;
  @IsEnum(Priority) priority!: Priority;
  @IsIn(['s', 'm', 'l']) size!: string;
  @Equals('yes') consent!: string;
  @IsEmail() email!: string;
  @IsUrl() homepage!: string;
  @IsUUID() id!: string;
  @IsDateString() since!: string;
  @IsIP('4') ipv4!: string;
  @IsIP('6') ipv6!: string;
  @IsIP() ip!: string;
  @Matches(/^[a-z-]+$/) slug!: string;
  @IsAlpha() letters!: string;
  @Length(2, 5) code!: string;
  @MinLength(3) atLeast!: string;
  @MaxLength(8) atMost!: string;
  @IsInt() @Min(0) @Max(100) percent!: number;
  @IsPositive() positive!: number;
  @IsNegative() negative!: number;
  @ArrayMinSize(1) @ArrayMaxSize(3) @IsString({ each: true }) few!: string[];
  @ArrayNotEmpty() @ArrayUnique() @IsInt({ each: true }) ids!: number[];
  @IsNotEmpty() @IsString() name!: string;
  @IsNotEmpty() @IsString({ each: true }) names!: string[];
  @IsOptional() @IsString() nickname?: string;
  @IsDefined() defined!: string;
}

const ALL_CONSTRAINTS_SCHEMA = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    amount: { type: 'number' },
    count: { type: 'integer' },
    flag: { type: 'boolean' },
    at: { type: 'string', format: 'date-time' },
    color: { type: 'string', enum: ['red', 'green'] },
    priority: { type: 'integer', enum: [1, 2] },
    size: { type: 'string', enum: ['s', 'm', 'l'] },
    consent: { type: 'string', const: 'yes' },
    email: { type: 'string', format: 'email' },
    homepage: { type: 'string', format: 'uri' },
    id: { type: 'string', format: 'uuid' },
    since: { type: 'string', format: 'date-time' },
    ipv4: { type: 'string', format: 'ipv4' },
    ipv6: { type: 'string', format: 'ipv6' },
    ip: { type: 'string', anyOf: [{ format: 'ipv4' }, { format: 'ipv6' }] },
    slug: { type: 'string', pattern: '^[a-z-]+$' },
    letters: { type: 'string', pattern: '^[A-Za-z]+$' },
    code: { type: 'string', minLength: 2, maxLength: 5 },
    atLeast: { type: 'string', minLength: 3 },
    atMost: { type: 'string', maxLength: 8 },
    percent: { type: 'integer', minimum: 0, maximum: 100 },
    positive: { type: 'number', exclusiveMinimum: 0 },
    negative: { type: 'number', exclusiveMaximum: 0 },
    few: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
    ids: { type: 'array', items: { type: 'integer' }, minItems: 1, uniqueItems: true },
    name: { type: 'string', minLength: 1 },
    names: { type: 'array', items: { type: 'string' }, minItems: 1 },
    nickname: { type: 'string' },
    defined: { type: 'string' },
  },
  required: [
    'text', 'amount', 'count', 'flag', 'at', 'color', 'priority', 'size', 'consent', 'email', 'homepage', 'id',
    'since', 'ipv4', 'ipv6', 'ip', 'slug', 'letters', 'code', 'atLeast', 'atMost', 'percent', 'positive',
    'negative', 'few', 'ids', 'name', 'names', 'defined',
  ],
  additionalProperties: false,
};

const VALID_ALL = {
  text: 't',
  amount: 1.5,
  count: 2,
  flag: true,
  at: '2026-01-31T09:30:00Z',
  color: 'green',
  priority: 2,
  size: 'm',
  consent: 'yes',
  email: 'ada@example.com',
  homepage: 'https://example.com/x',
  id: '7c9e6679-7425-40de-944b-e07fc1f90ae7',
  since: '2025-12-01T00:00:00Z',
  ipv4: '10.0.0.1',
  ipv6: '::1',
  ip: '192.168.1.1',
  slug: 'a-b',
  letters: 'Abc',
  code: 'abc',
  atLeast: 'abcd',
  atMost: 'abc',
  percent: 100,
  positive: 0.1,
  negative: -1,
  few: ['a'],
  ids: [1, 2],
  name: 'n',
  names: ['x'],
  defined: 'd',
};

class EachTags {
  @IsString({ each: true }) @MaxLength(5, { each: true }) tags!: string[];
  @IsInt({ each: true }) @Min(1, { each: true }) @ArrayMaxSize(2) counts!: number[];
}

class EachEnum {
  @IsEnum(Color, { each: true }) colors!: Color[];
  @IsIn(['s', 'm'], { each: true }) @ArrayMaxSize(2) sizes!: string[];
}

@Injectable()
class EachEnumTools {
  @Tool()
  paint(@Args() args: EachEnum) {
    return args.colors.join(',');
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'each-enum', version: '1.0.0' })], providers: [EachEnumTools] })
class EachEnumModule {}

class GeoPoint {
  @IsNumber() @Min(-90) @Max(90) lat!: number;
  @IsNumber() @Min(-180) @Max(180) lon!: number;
}

class Stop {
  @IsString() city!: string;
  @IsInt() @Min(1) nights!: number;
  @ValidateNested() @Type(() => GeoPoint) where!: GeoPoint;
}

class Trip {
  @Description('Trip title') @IsString() title!: string;
  @IsDate() @Type(() => Date) start!: Date;
  @ValidateNested() @Type(() => GeoPoint) origin!: GeoPoint;
  @ValidateNested({ each: true }) @Type(() => Stop) @ArrayMinSize(1) stops!: Stop[];
}

class TreeNode {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}

class Forest {
  @IsString() owner!: string;
  @ValidateNested() @Type(() => TreeNode) root!: TreeNode;
}

class Annotated {
  @Description('City name, e.g. Paris') @IsString() city!: string;
  @Field({ type: 'integer', description: 'How many' }) count!: number;
  @Field({ type: [String] }) labels!: string[];
  @Field({ enum: Color }) color!: Color;
  @Field({ schema: { minimum: 5, examples: [7] } }) @IsInt() threshold!: number;
}

class BaseQuery {
  @IsString() @Length(1, 20) id!: string;
  @IsOptional() @IsInt() @Min(1) limit?: number;
}

class SearchQuery extends BaseQuery {
  @IsString() term!: string;
}

class CaseInsensitive {
  @Matches(/^abc$/i) word!: string;
}

class Forecast {
  @IsString() city!: string;
  @IsInt() high!: number;
}

const seen: Record<string, unknown> = {};

@Injectable()
class DtoTools {
  @Tool()
  all(@Args() args: AllConstraints) {
    seen.all = args;
    return 'ok';
  }

  @Tool()
  each(@Args() args: EachTags) {
    seen.each = args;
    return 'ok';
  }

  @Tool()
  trip(@Args() args: Trip) {
    seen.trip = args;
    return 'ok';
  }

  @Tool()
  tree(@Args() args: TreeNode) {
    seen.tree = args;
    return 'ok';
  }

  @Tool()
  forest(@Args() args: Forest) {
    seen.forest = args;
    return 'ok';
  }

  @Tool()
  annotated(@Args() args: Annotated) {
    seen.annotated = args;
    return 'ok';
  }

  @Tool()
  search(@Args() args: SearchQuery) {
    seen.search = args;
    return 'ok';
  }

  @Tool()
  caseInsensitive(@Args() args: CaseInsensitive) {
    seen.caseInsensitive = args;
    return 'ok';
  }

  @Tool({
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { q: { type: 'string', minLength: 2 }, page: { type: 'integer' } },
      required: ['q'],
    },
  })
  raw(@Args() args: Record<string, unknown>) {
    seen.raw = args;
    return 'ok';
  }

  @Tool({
    inputSchema: {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { type: 'number', exclusiveMinimum: 0 } },
      required: ['n'],
    },
  })
  rawDraft7(@Args() args: Record<string, unknown>) {
    seen.rawDraft7 = args;
    return 'ok';
  }

  @Tool({ output: Forecast })
  forecast(@Args() args: CaseInsensitive) {
    return args.word === 'abc' ? { city: 'Paris', high: 21 } : { city: 42 };
  }

  @Tool({ output: Number })
  answer() {
    return 42;
  }

  @Tool({ output: [String] })
  words() {
    return ['a', 'b'];
  }

  @Tool({ output: [String] })
  badWords() {
    return ['a', 2];
  }
}

const logged: string[] = [];
const logger: ServerLogger = { error: (message) => void logged.push(message), warn: (message) => void logged.push(message) };

@Module({ imports: [McpModule.forRoot({ name: 'dto-schema', version: '1.0.0', logger })], providers: [DtoTools] })
class DtoModule {}

const GEO_POINT = {
  type: 'object',
  properties: {
    lat: { type: 'number', minimum: -90, maximum: 90 },
    lon: { type: 'number', minimum: -180, maximum: 180 },
  },
  required: ['lat', 'lon'],
  additionalProperties: false,
};

/** TreeNode as clients see it: `levels` TreeNodes one inside the other, the innermost's children any value. */
function inlinedTree(levels: number): object {
  let schema: object = {};
  for (let i = 0; i < levels; i++) {
    schema = { type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: schema } }, required: ['name'], additionalProperties: false };
  }
  return schema;
}

describe.each(['2025-11-25', '2026-07-28'] as const)('@Args DTO schemas (protocol %s)', (protocolVersion) => {
  let client: TestClient;
  let tools: Record<string, { inputSchema: unknown; outputSchema?: unknown }>;

  beforeAll(async () => {
    client = await createTestClient(DtoModule, { protocolVersion });
    tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
  });
  afterAll(() => client.close());

  it('maps every constraint of the constraint map', () => {
    expect(tools.all.inputSchema).toEqual(ALL_CONSTRAINTS_SCHEMA);
  });

  it('applies `each: true` constraints to the items', () => {
    expect(tools.each.inputSchema).toEqual({
      type: 'object',
      properties: {
        tags: { type: 'array', items: { type: 'string', maxLength: 5 } },
        counts: { type: 'array', items: { type: 'integer', minimum: 1 }, maxItems: 2 },
      },
      required: ['tags', 'counts'],
      additionalProperties: false,
    });
  });

  it('inlines nested DTOs and arrays of nested DTOs', () => {
    expect(tools.trip.inputSchema).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', description: 'Trip title' },
        start: { type: 'string', format: 'date-time' },
        origin: GEO_POINT,
        stops: {
          type: 'array',
          items: {
            type: 'object',
            properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1 }, where: GEO_POINT },
            required: ['city', 'nights', 'where'],
            additionalProperties: false,
          },
          minItems: 1,
        },
      },
      required: ['title', 'start', 'origin', 'stops'],
      additionalProperties: false,
    });
  });

  it('advertises a recursive DTO inlined (itself and three levels inside itself, then any value) and keeps the root an object schema', () => {
    // Built with $defs and $ref (spec/schema/ref-free.spec.ts shows them with schemaRefs: 'keep'); clients get no $ref.
    expect(tools.tree.inputSchema).toEqual(inlinedTree(4));
    expect(tools.forest.inputSchema).toEqual({
      type: 'object',
      properties: { owner: { type: 'string' }, root: inlinedTree(4) },
      required: ['owner', 'root'],
      additionalProperties: false,
    });
  });

  it('takes descriptions, types, enums and schemas from @Description and @Field', () => {
    expect(tools.annotated.inputSchema).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name, e.g. Paris' },
        count: { type: 'integer', description: 'How many' },
        labels: { type: 'array', items: { type: 'string' } },
        color: { type: 'string', enum: ['red', 'green'] },
        threshold: { type: 'integer', minimum: 5, examples: [7] },
      },
      // class-validator's properties first, then those only @Field() knows.
      required: ['city', 'threshold', 'count', 'labels', 'color'],
      additionalProperties: false,
    });
  });

  it('includes the properties a DTO inherits', () => {
    const schema = tools.search.inputSchema as { properties: object; required: string[] };
    expect(schema).toEqual({
      type: 'object',
      properties: {
        term: { type: 'string' },
        id: { type: 'string', minLength: 1, maxLength: 20 },
        limit: { type: 'integer', minimum: 1 },
      },
      required: expect.arrayContaining(['term', 'id']),
      additionalProperties: false,
    });
    expect([...schema.required].sort()).toEqual(['id', 'term']);
  });

  it('leaves a pattern with flags out of the schema (JSON Schema patterns have none)', () => {
    expect(tools.caseInsensitive.inputSchema).toEqual({
      type: 'object',
      properties: { word: { type: 'string' } },
      required: ['word'],
      additionalProperties: false,
    });
  });

  it('advertises a raw inputSchema verbatim, $schema included', () => {
    expect(tools.raw.inputSchema).toEqual({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { q: { type: 'string', minLength: 2 }, page: { type: 'integer' } },
      required: ['q'],
    });
    expect(tools.rawDraft7.inputSchema).toEqual({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { n: { type: 'number', exclusiveMinimum: 0 } },
      required: ['n'],
    });
  });

  it('advertises output schemas: DTOs as they are, primitives and arrays wrapped as { result }', () => {
    expect(tools.forecast.outputSchema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, high: { type: 'integer' } },
      required: ['city', 'high'],
      additionalProperties: false,
    });
    expect(tools.answer.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'number' } },
      required: ['result'],
      additionalProperties: false,
    });
    expect(tools.words.outputSchema).toEqual({
      type: 'object',
      properties: { result: { type: 'array', items: { type: 'string' } } },
      required: ['result'],
      additionalProperties: false,
    });
    expect(tools.all.outputSchema).toBeUndefined();
  });
});

describe('@IsEnum / @IsIn with `each: true`', () => {
  // The enum values state the item type, as the bootstrap message itself suggests (@IsEnum(MyEnum)).
  it('types the items from the enum values instead of failing to bootstrap', async () => {
    const client = await createTestClient(EachEnumModule);
    try {
      const { tools } = await client.listTools();
      expect(tools[0].inputSchema).toEqual({
        type: 'object',
        properties: {
          colors: { type: 'array', items: { type: 'string', enum: ['red', 'green'] } },
          sizes: { type: 'array', items: { type: 'string', enum: ['s', 'm'] }, maxItems: 2 },
        },
        required: ['colors', 'sizes'],
        additionalProperties: false,
      });
      const result = await client.callTool({ name: 'paint', arguments: { colors: ['red', 'blue'], sizes: ['s'] } });
      expect(result.content).toEqual([
        { type: 'text', text: 'Invalid arguments for tool paint: colors[1]: must be one of: "red", "green"' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('@Args DTO values the method receives', () => {
  let client: TestClient;

  beforeAll(async () => {
    client = await createTestClient(DtoModule);
  });
  afterAll(() => client.close());

  async function ok(name: string, args: Record<string, unknown>): Promise<unknown> {
    delete seen[name];
    const result = await client.callTool({ name, arguments: args });
    expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
    expect(result.isError).toBeFalsy();
    return seen[name];
  }

  async function errorText(name: string, args: Record<string, unknown>): Promise<string> {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError).toBe(true);
    return (result.content as { text: string }[])[0].text;
  }

  it('accepts a value that satisfies every mapped constraint and builds an instance with a Date', async () => {
    const args = (await ok('all', VALID_ALL)) as AllConstraints;
    expect(args).toBeInstanceOf(AllConstraints);
    expect(args.at).toBeInstanceOf(Date);
    expect(args.at.toISOString()).toBe('2026-01-31T09:30:00.000Z');
    expect({ ...args, at: VALID_ALL.at }).toEqual(VALID_ALL);
  });

  it('rejects a value that breaks each mapped constraint, naming every field', async () => {
    const text = await errorText('all', {
      ...VALID_ALL,
      color: 'blue',
      priority: 3,
      consent: 'no',
      email: 'nope',
      id: 'not-a-uuid',
      ipv4: '::1',
      slug: 'A B',
      letters: 'a1',
      code: 'a',
      percent: 101,
      positive: 0,
      negative: 0,
      few: [],
      ids: [1, 1],
      name: '',
    });
    expect(text).toBe(
      'Invalid arguments for tool all: color: must be one of: "red", "green"; priority: must be one of: 1, 2; ' +
        'consent: must be "yes"; email: must be a valid email address; id: must be a valid UUID; ' +
        'ipv4: must be a valid IPv4 address; slug: must match the pattern ^[a-z-]+$; ' +
        'letters: must match the pattern ^[A-Za-z]+$; code: must be at least 2 characters long; ' +
        'percent: must not be greater than 100; positive: must be greater than 0; negative: must be less than 0; ' +
        'few: must contain at least 1 item; ids: must not contain duplicate items (items 0 and 1 are equal); ' +
        'name: must be at least 1 character long',
    );
  });

  it('builds nested instances, arrays of them and Dates', async () => {
    const trip = (await ok('trip', {
      title: 'Loop',
      start: '2026-05-01T08:00:00Z',
      origin: { lat: 1, lon: 2 },
      stops: [
        { city: 'Lyon', nights: 2, where: { lat: 45.7, lon: 4.8 } },
        { city: 'Nice', nights: 1, where: { lat: 43.7, lon: 7.2 } },
      ],
    })) as Trip;
    expect(trip).toBeInstanceOf(Trip);
    expect(trip.start).toBeInstanceOf(Date);
    expect(trip.origin).toBeInstanceOf(GeoPoint);
    expect(trip.stops).toHaveLength(2);
    for (const stop of trip.stops) {
      expect(stop).toBeInstanceOf(Stop);
      expect(stop.where).toBeInstanceOf(GeoPoint);
    }
    expect(trip.stops[1]).toEqual({ city: 'Nice', nights: 1, where: { lat: 43.7, lon: 7.2 } });
  });

  it('builds recursive instances at every depth', async () => {
    const tree = (await ok('tree', {
      name: 'root',
      children: [{ name: 'a', children: [{ name: 'a1' }] }, { name: 'b', children: [] }],
    })) as TreeNode;
    expect(tree).toBeInstanceOf(TreeNode);
    expect(tree.children![0]).toBeInstanceOf(TreeNode);
    expect(tree.children![0].children![0]).toBeInstanceOf(TreeNode);
    expect(tree.children![0].children![0]).toEqual({ name: 'a1' });

    const forest = (await ok('forest', { owner: 'me', root: { name: 'r', children: [{ name: 'c' }] } })) as Forest;
    expect(forest.root).toBeInstanceOf(TreeNode);
    expect(forest.root.children![0]).toBeInstanceOf(TreeNode);
  });

  it('validates recursive levels against the $defs', async () => {
    expect(await errorText('tree', { name: 'root', children: [{ name: 'a', children: [{ name: true }, {}] }] })).toBe(
      'Invalid arguments for tool tree: children[0].children[0].name: must be a string; children[0].children[1].name: is required',
    );
  });

  it('builds an instance of the subclass with the inherited properties', async () => {
    const query = (await ok('search', { id: 'x1', term: 'cats', limit: 5 })) as SearchQuery;
    expect(query).toBeInstanceOf(SearchQuery);
    expect(query).toEqual({ id: 'x1', term: 'cats', limit: 5 });
    expect(await errorText('search', { term: 'cats' })).toBe('Invalid arguments for tool search: id: is required');
  });

  it('still enforces a constraint the schema cannot express (a pattern with flags) at call time', async () => {
    expect(await ok('caseInsensitive', { word: 'ABC' })).toBeInstanceOf(CaseInsensitive);
    expect(await errorText('caseInsensitive', { word: 'abd' })).toBe(
      'Invalid arguments for tool caseInsensitive: word: word must match /^abc$/i regular expression',
    );
  });

  it('gives a raw-schema tool the validated plain object and validates against the raw schema', async () => {
    const args = await ok('raw', { q: 'hello', page: 2 });
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(args).toEqual({ q: 'hello', page: 2 });
    expect(await errorText('raw', { q: 'h' })).toBe('Invalid arguments for tool raw: q: must be at least 2 characters long');
    expect(await ok('rawDraft7', { n: 1 })).toEqual({ n: 1 });
    expect(await errorText('rawDraft7', { n: 0 })).toBe('Invalid arguments for tool rawDraft7: n: must be greater than 0');
  });

  it('returns structured output that matches the output schema', async () => {
    expect(await client.callTool({ name: 'forecast', arguments: { word: 'abc' } })).toMatchObject({
      content: [{ type: 'text', text: '{"city":"Paris","high":21}' }],
      structuredContent: { city: 'Paris', high: 21 },
    });
    expect(await client.callTool({ name: 'answer', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: '{"result":42}' }],
      structuredContent: { result: 42 },
    });
    expect(await client.callTool({ name: 'words', arguments: {} })).toMatchObject({
      content: [{ type: 'text', text: '{"result":["a","b"]}' }],
      structuredContent: { result: ['a', 'b'] },
    });
  });

  it('turns output that does not match the output schema into an isError result and logs it', async () => {
    logged.length = 0;
    const bad = await client.callTool({ name: 'forecast', arguments: { word: 'ABC' } });
    expect(bad).toMatchObject({
      isError: true,
      content: [
        {
          type: 'text',
          text: "Tool 'forecast' returned output that does not match its output schema: high: is required; city: must be a string",
        },
      ],
    });
    expect(bad.structuredContent).toBeUndefined();
    const badWords = await client.callTool({ name: 'badWords', arguments: {} });
    expect(badWords).toMatchObject({
      isError: true,
      content: [
        { type: 'text', text: "Tool 'badWords' returned output that does not match its output schema: result[1]: must be a string" },
      ],
    });
    expect(logged).toHaveLength(2);
    expect(logged[0]).toContain('output schema');
  });
});
