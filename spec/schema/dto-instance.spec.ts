import 'reflect-metadata';
import * as transformer from 'class-transformer';
import { Exclude, Expose, Type, plainToInstance } from 'class-transformer';
import { ArrayMinSize, IsDate, IsIn, IsInt, IsNumber, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import fc from 'fast-check';
import { Args, Injectable, McpModule, Module, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

// A DTO without class-transformer rules of its own is built by its compiled constructor (lib/schema/dto-instance.ts),
// not by class-transformer: these specs hold it to the instance plainToInstance(cls, value, { enableImplicitConversion:
// true }) makes of the same arguments, for the DTO shapes of the validation specs, and show the DTOs that still go
// to class-transformer, and why.

class Author {
  @IsString() first!: string;
  @IsString() last!: string;
  @IsInt() born!: number;
  get initials(): string {
    return `${this.first[0] ?? ''}${this.last[0] ?? ''}`;
  }
}

/** The benchmark's DTO (bench/src/systems/mcp-reflect-dto.ts), with a method. */
class BookInput {
  @IsString() @Length(1, 100) title!: string;
  @IsInt() @Min(1) @Max(10) copies!: number;
  @IsIn(['fiction', 'science', 'history']) genre!: string;
  @IsOptional() @IsString() note?: string;
  @ValidateNested({ each: true }) @Type(() => Author) authors!: Author[];
  byline(): string {
    return this.authors.map((a) => a.initials).join(' ');
  }
}

class GeoPoint {
  @IsNumber() @Min(-90) @Max(90) lat!: number;
  @IsNumber() @Min(-180) @Max(180) lon!: number;
}

class Stop {
  @IsString() city!: string;
  @IsInt() @Min(1) nights!: number;
  @ValidateNested() @Type(() => GeoPoint) where!: GeoPoint;
}

/** spec/schema/dto-schema.spec.ts's Trip: a Date, a nested DTO, an array of DTOs holding DTOs. */
class Trip {
  @IsString() title!: string;
  @IsDate() @Type(() => Date) start!: Date;
  @ValidateNested() @Type(() => GeoPoint) origin!: GeoPoint;
  @ValidateNested({ each: true }) @Type(() => Stop) @ArrayMinSize(1) stops!: Stop[];
  @IsOptional() @IsDate({ each: true }) @Type(() => Date) reminders?: Date[];
}

/** A recursive DTO, as the Forest of dto-schema.spec.ts. */
class TreeNode {
  @IsString() name!: string;
  @IsOptional() @ValidateNested({ each: true }) @Type(() => TreeNode) children?: TreeNode[];
}

class BaseQuery {
  @IsString() @Length(1, 20) id!: string;
  @IsOptional() @IsInt() @Min(1) limit?: number;
}

/** Inherited rules, defaults from initialisers, a getter without a setter of the same name as a property. */
class SearchQuery extends BaseQuery {
  @IsString() term!: string;
  @IsOptional() @IsInt() page: number = 1;
  @IsOptional() @IsString({ each: true }) tags: string[] = [];
  @IsOptional() @IsString() get label(): string {
    return `${this.term}#${this.page}`;
  }
}

const received: unknown[] = [];

@Injectable()
class InstanceTools {
  @Tool() book(@Args() input: BookInput): string {
    received.push(input);
    return input.byline();
  }
  @Tool() trip(@Args() input: Trip): string {
    received.push(input);
    return input.start.toISOString();
  }
  @Tool() tree(@Args() input: TreeNode): string {
    received.push(input);
    return input.name;
  }
  @Tool() search(@Args() input: SearchQuery): string {
    received.push(input);
    return input.label;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'dto-instances', version: '1.0.0' })], providers: [InstanceTools] })
class InstanceModule {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
const text = fc.string({ minLength: 1, maxLength: 8 });
const author = fc.record({ first: text, last: text, born: fc.integer({ min: -3000, max: 3000 }) });
const book = fc.record(
  {
    title: text,
    copies: fc.integer({ min: 1, max: 10 }),
    genre: fc.constantFrom('fiction', 'science', 'history'),
    note: fc.string({ maxLength: 5 }),
    authors: fc.array(author, { maxLength: 3 }),
  },
  { requiredKeys: ['title', 'copies', 'genre', 'authors'] },
);
const point = fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lon: fc.double({ min: -180, max: 180, noNaN: true }) });
const iso = fc.date({ min: new Date('1970-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
const trip = fc.record(
  {
    title: text,
    start: iso,
    origin: point,
    stops: fc.array(fc.record({ city: text, nights: fc.integer({ min: 1, max: 30 }), where: point }), { minLength: 1, maxLength: 3 }),
    reminders: fc.array(iso, { maxLength: 2 }),
  },
  { requiredKeys: ['title', 'start', 'origin', 'stops'] },
);
const { tree: treeArbitrary } = fc.letrec<{ tree: Json }>((tie) => ({
  tree: fc.record({ name: text, children: fc.array(tie('tree'), { maxLength: 2 }) }, { requiredKeys: ['name'] }),
}));
const search = fc.record(
  { id: fc.string({ minLength: 1, maxLength: 20 }), limit: fc.integer({ min: 1, max: 50 }), term: text, page: fc.integer({ min: 1, max: 9 }), tags: fc.array(text, { maxLength: 2 }) },
  { requiredKeys: ['id', 'term'] },
);

const SHAPES = [
  { tool: 'book', cls: BookInput, arbitrary: book },
  { tool: 'trip', cls: Trip, arbitrary: trip },
  { tool: 'tree', cls: TreeNode, arbitrary: treeArbitrary },
  { tool: 'search', cls: SearchQuery, arbitrary: search },
] as const;

/** The prototype of every object in `value`, path by path (toStrictEqual compares constructors; this also says where). */
function prototypes(value: unknown, path = '$', out: Record<string, unknown> = {}): Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return out;
  out[path] = Object.getPrototypeOf(value);
  for (const [key, child] of Object.entries(value)) prototypes(child, `${path}.${key}`, out);
  return out;
}

describe('the compiled constructor of a DTO builds what class-transformer builds', () => {
  let client: TestClient;
  let plainToInstanceCalls: jest.SpyInstance;

  beforeAll(async () => {
    // Spied before the application is built, where the library takes class-transformer's function.
    plainToInstanceCalls = jest.spyOn(transformer, 'plainToInstance');
    client = await createTestClient(InstanceModule);
  });
  afterAll(async () => {
    await client.close();
    plainToInstanceCalls.mockRestore();
  });

  it.each(SHAPES)('$tool: same prototypes, nested instances, arrays, Dates and defaults as plainToInstance', async ({ tool, cls, arbitrary }) => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (input) => {
        const args = JSON.parse(JSON.stringify(input)) as Record<string, Json>;
        received.length = 0;
        plainToInstanceCalls.mockClear();
        const result = await client.callTool({ name: tool, arguments: args });
        expect(result.isError).toBeUndefined();
        expect(plainToInstanceCalls).not.toHaveBeenCalled();
        const expected = plainToInstance(cls as new () => object, structuredClone(args), { enableImplicitConversion: true });
        expect(received).toHaveLength(1);
        expect(received[0]).toStrictEqual(expected);
        expect(prototypes(received[0])).toEqual(prototypes(expected));
      }),
      { numRuns: 60 },
    );
  });

  it('gives the tool an instance whose getters and methods work, nested ones included', async () => {
    const result = await client.callTool({
      name: 'book',
      arguments: { title: 'T', copies: 1, genre: 'fiction', authors: [{ first: 'Ursula', last: 'Le Guin', born: 1929 }, { first: 'Ann', last: 'Other', born: 1950 }] },
    });
    expect(result.content).toEqual([{ type: 'text', text: 'UL AO' }]);
    const trip = await client.callTool({ name: 'trip', arguments: { title: 't', start: '2026-05-06T07:08:09.000Z', origin: { lat: 1, lon: 2 }, stops: [{ city: 'c', nights: 1, where: { lat: 0, lon: 0 } }] } });
    expect(trip.content).toEqual([{ type: 'text', text: '2026-05-06T07:08:09.000Z' }]);
  });

  it('keeps the defaults of initialisers for absent properties, and never writes over a getter without a setter', async () => {
    received.length = 0;
    const result = await client.callTool({ name: 'search', arguments: { id: 'q1', term: 'moon', label: 'sent' } });
    expect(result.content).toEqual([{ type: 'text', text: 'moon#1' }]);
    const query = received[0] as SearchQuery;
    expect(query).toBeInstanceOf(SearchQuery);
    expect(query.page).toBe(1);
    expect(query.tags).toEqual([]);
    expect(Object.hasOwn(query, 'label')).toBe(false);
    // A fresh default per call, as class-transformer's `new cls()` gives.
    (query.tags as string[]).push('kept?');
    received.length = 0;
    await client.callTool({ name: 'search', arguments: { id: 'q2', term: 'sun' } });
    expect((received[0] as SearchQuery).tags).toEqual([]);
  });
});

class Circle {
  @IsIn(['circle', 'square']) kind!: string;
  @IsNumber() size!: number;
  area(): number {
    return Math.PI * this.size ** 2;
  }
}

class Square extends Circle {
  override area(): number {
    return this.size ** 2;
  }
}

/** A discriminator picks the class per value: class-transformer builds the DTO. */
class Drawing {
  @ValidateNested()
  @Type(() => Circle, { discriminator: { property: 'kind', subTypes: [{ value: Circle, name: 'circle' }, { value: Square, name: 'square' }] }, keepDiscriminatorProperty: true })
  shape!: Circle;
}

/** `@Type((options) => …)` picks the class from the value being built: class-transformer builds the DTO. */
class Measured {
  @IsIn(['circle', 'square']) unit!: string;
  @ValidateNested() @Type((options?: { object?: Record<string, unknown> }) => (options?.object?.unit === 'square' ? Square : Circle)) shape!: Circle;
}

/** `@Exclude()` drops a property: class-transformer builds the DTO. */
class Account {
  @IsString() name!: string;
  @IsOptional() @IsString() @Exclude() secret?: string;
}

/** `@Expose()` changes which keys class-transformer reads: class-transformer builds the DTO. */
class Labelled {
  @Expose() @IsString() label!: string;
}

@Injectable()
class FallbackTools {
  @Tool() labelled(@Args() input: Labelled): string {
    return `${input.constructor.name} ${input.label}`;
  }
  @Tool() draw(@Args() input: Drawing): string {
    return `${input.shape.constructor.name} ${input.shape.area()}`;
  }
  @Tool() measure(@Args() input: Measured): string {
    return `${input.shape.constructor.name} ${input.shape.area()}`;
  }
  @Tool() account(@Args() input: Account): string {
    return `${input.constructor.name} ${input.name} ${String(input.secret)}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'dto-fallbacks', version: '1.0.0' })], providers: [FallbackTools] })
class FallbackModule {}

describe('DTOs using a class-transformer rule the compiled constructor does not cover', () => {
  let client: TestClient;
  let plainToInstanceCalls: jest.SpyInstance;
  beforeAll(async () => {
    plainToInstanceCalls = jest.spyOn(transformer, 'plainToInstance');
    client = await createTestClient(FallbackModule);
  });
  afterAll(async () => {
    await client.close();
    plainToInstanceCalls.mockRestore();
  });

  it.each([
    ['draw', { shape: { kind: 'square', size: 3 } }, 'Square 9'],
    ['draw', { shape: { kind: 'circle', size: 1 } }, `Circle ${Math.PI}`],
    ['measure', { unit: 'square', shape: { kind: 'square', size: 2 } }, 'Square 4'],
    ['account', { name: 'ada', secret: 'hunter2' }, 'Account ada undefined'],
    ['labelled', { label: 'x' }, 'Labelled x'],
  ])('%s %j is built by class-transformer', async (name, args, text) => {
    plainToInstanceCalls.mockClear();
    const result = await client.callTool({ name, arguments: args });
    expect(result.content).toEqual([{ type: 'text', text }]);
    expect(plainToInstanceCalls).toHaveBeenCalledTimes(1);
  });
});
