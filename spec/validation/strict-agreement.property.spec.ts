import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsEmail,
  IsEnum,
  IsInt,
  IsOptional,
  IsString,
  Length,
  Matches,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { Type } from 'class-transformer';
import fc from 'fast-check';
import { Args, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

// The advertised inputSchema is the contract: in strict mode the server must accept exactly the inputs an
// independent JSON Schema 2020-12 validator accepts, and in lenient mode at least those.

enum Role {
  Admin = 'admin',
  User = 'user',
}

class Addr {
  @IsString() @MinLength(1) city!: string;
  @IsOptional() @IsInt() @Min(1000) @Max(99999) zip?: number;
}

class Signup {
  @IsString() @Length(3, 8) @Matches(/^[a-z0-9_]+$/) username!: string;
  @IsEmail() email!: string;
  @IsEnum(Role) role!: Role;
  @IsInt() @Min(13) @Max(120) age!: number;
  @IsOptional() @IsString() @MaxLength(5) nickname?: string;
  @ValidateNested() @Type(() => Addr) address!: Addr;
  @IsString({ each: true }) @ArrayMinSize(1) @ArrayMaxSize(3) tags!: string[];
}

class Contact {
  @IsString() @MinLength(2) name!: string;
  @IsOptional() @IsEmail() email?: string;
}

@Injectable()
class AgreementTools {
  @Tool()
  signup(@Args() _dto: Signup) {
    return 'ok';
  }

  @Tool()
  book(
    @Param('nights', { type: 'integer', schema: { minimum: 1, maximum: 14 } }) _nights: number,
    @Param('guests', { type: 'integer', optional: true, schema: { minimum: 1, maximum: 4 } }) _guests: number,
    @Param('room', { enum: ['single', 'double', 'suite'] }) _room: string,
    @Param('code', { schema: { pattern: '^[A-Z]{3}$' } }) _code: string,
    @Param('extras', { type: [String], optional: true, schema: { maxItems: 2 } }) _extras: string[],
    @Param('contact', { type: Contact }) _contact: Contact,
    @Param('price', { default: 10, schema: { exclusiveMinimum: 0 } }) _price: number,
  ) {
    return 'ok';
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'agreement-strict', version: '1.0.0', strictInputValidation: true })],
  providers: [AgreementTools],
})
class StrictModule {}

@Module({ imports: [McpModule.forRoot({ name: 'agreement-lenient', version: '1.0.0' })], providers: [AgreementTools] })
class LenientModule {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const noise: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 200 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.string({ maxLength: 10 }),
  fc.constantFrom('10', 'true', '', '{"city":"x"}', '["a"]'),
  fc.constant([] as Json[]),
  fc.constant({} as Json),
  fc.array(fc.oneof(fc.integer(), fc.string({ maxLength: 3 })), { maxLength: 3 }),
);

/** A value that is often valid, often on a boundary, and sometimes of the wrong type. */
const mixed = <T extends Json>(valid: fc.Arbitrary<T>, ...edges: Json[]): fc.Arbitrary<Json> =>
  fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: fc.constantFrom(...edges), weight: 2 }, { arbitrary: noise, weight: 2 });

const validAddr = fc.record(
  { city: fc.string({ minLength: 1, maxLength: 6 }), zip: fc.integer({ min: 1000, max: 99999 }) },
  { requiredKeys: ['city'] },
);
const validSignup = fc.record(
  {
    username: fc.stringMatching(/^[a-z0-9_]{3,8}$/),
    email: fc.constantFrom('ada@example.com', 'a.b@c.io', 'x_y@host.org'),
    role: fc.constantFrom('admin', 'user'),
    age: fc.integer({ min: 13, max: 120 }),
    nickname: fc.string({ maxLength: 5 }),
    address: validAddr,
    tags: fc.array(fc.string({ maxLength: 4 }), { minLength: 1, maxLength: 3 }),
  },
  { requiredKeys: ['username', 'email', 'role', 'age', 'address', 'tags'] },
);
const mixedSignup = fc.record(
  {
    username: mixed(fc.string({ maxLength: 10 }), 'ab', 'abc', 'abcdefgh', 'abcdefghi', 'ABC', 'a b', 'a-b'),
    email: mixed(fc.constantFrom('ada@example.com', 'nope'), '', 'a@', '@b.c', 'a@b'),
    role: mixed(fc.constantFrom('admin', 'user'), 'Admin', 'root', ''),
    age: mixed(fc.integer({ min: 0, max: 130 }), 12, 13, 120, 121, 13.5, -13),
    nickname: mixed(fc.string({ maxLength: 7 }), '', 'abcde', 'abcdef'),
    address: fc.oneof(
      validAddr,
      fc.record(
        { city: mixed(fc.string({ maxLength: 3 }), ''), zip: mixed(fc.integer({ min: 0, max: 120000 }), 999, 1000, 99999, 100000) },
        { requiredKeys: [] },
      ),
      noise,
    ),
    tags: fc.oneof(fc.array(mixed(fc.string({ maxLength: 3 }), 1, null), { maxLength: 5 }), noise),
  },
  { requiredKeys: [] },
);

const validContact = fc.record(
  { name: fc.string({ minLength: 2, maxLength: 6 }), email: fc.constantFrom('ada@example.com', 'z@z.zz') },
  { requiredKeys: ['name'] },
);
const validBook = fc.record(
  {
    nights: fc.integer({ min: 1, max: 14 }),
    guests: fc.integer({ min: 1, max: 4 }),
    room: fc.constantFrom('single', 'double', 'suite'),
    code: fc.stringMatching(/^[A-Z]{3}$/),
    extras: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    contact: validContact,
    price: fc.double({ min: 0.01, max: 1000, noNaN: true }),
  },
  { requiredKeys: ['nights', 'room', 'code', 'contact'] },
);
const mixedBook = fc.record(
  {
    nights: mixed(fc.integer({ min: -2, max: 20 }), 0, 1, 14, 15, 1.5),
    guests: mixed(fc.integer({ min: 0, max: 6 }), 0, 1, 4, 5),
    room: mixed(fc.constantFrom('single', 'double', 'suite'), 'Single', 'twin', ''),
    code: mixed(fc.string({ maxLength: 4 }), 'ABC', 'AB', 'ABCD', 'abc', 'A1C'),
    extras: fc.oneof(fc.array(mixed(fc.string({ maxLength: 2 }), 3), { maxLength: 4 }), noise),
    contact: fc.oneof(
      validContact,
      fc.record({ name: mixed(fc.string({ maxLength: 3 }), 'a', 'ab'), email: mixed(fc.constant('z@z.zz'), 'zz') }, { requiredKeys: [] }),
      noise,
    ),
    price: mixed(fc.double({ min: -10, max: 10, noNaN: true }), 0, -0.001, 0.001),
  },
  { requiredKeys: [] },
);

/** One change to an otherwise valid input: a key removed, set to noise, or an unknown key added (maybe nested). */
function mutated(valid: fc.Arbitrary<Record<string, Json>>, nested: string): fc.Arbitrary<Record<string, Json>> {
  return fc
    .tuple(valid, fc.constantFrom('delete', 'set', 'extra', 'nestedExtra'), fc.nat(), noise)
    .map(([input, how, pick, value]) => {
      const copy = structuredClone(input);
      const keys = Object.keys(copy);
      const key = keys[pick % keys.length];
      if (how === 'delete') delete copy[key];
      else if (how === 'set') copy[key] = value;
      else if (how === 'extra') copy[['extra', 'Username', 'zip', 'city'][pick % 4]] = value;
      else (copy[nested] as Record<string, Json>).unexpected = value;
      return copy;
    });
}

function inputs(
  valid: fc.Arbitrary<Record<string, Json>>,
  mixedRecord: fc.Arbitrary<Record<string, Json>>,
  nested: string,
): fc.Arbitrary<Record<string, Json>> {
  return fc.oneof(valid, mutated(valid, nested), mixedRecord);
}

const TOOLS = [
  { name: 'signup', arbitrary: inputs(validSignup, mixedSignup, 'address') },
  { name: 'book', arbitrary: inputs(validBook, mixedBook, 'contact') },
] as const;

/** An independent validator of the advertised schema: a fresh Ajv 2020 instance, none of the library's code. */
function referenceValidator(schema: object): (value: unknown) => boolean {
  const ajv = new Ajv2020({ strict: false, allErrors: false });
  addFormats(ajv);
  const validate = ajv.compile(schema);
  return (value) => validate(value) as boolean;
}

/** What travels on the wire: JSON, so -0, undefined and the like are normalised exactly as a real client would. */
const wire = (value: Record<string, Json>): Record<string, Json> => JSON.parse(JSON.stringify(value));

async function serverAccepts(client: TestClient, name: string, args: Record<string, Json>): Promise<boolean> {
  const result = await client.callTool({ name, arguments: wire(args) });
  if (result.isError) {
    const text = (result.content as { text: string }[])[0].text;
    // A rejection must be a validation message, never a tool failure.
    expect(text.startsWith(`Invalid arguments for tool ${name}: `)).toBe(true);
    return false;
  }
  expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
  return true;
}

async function referenceFor(client: TestClient): Promise<Record<string, (value: unknown) => boolean>> {
  const { tools } = await client.listTools();
  return Object.fromEntries(tools.map((t) => [t.name, referenceValidator(t.inputSchema)]));
}

describe('strict mode agrees with the advertised inputSchema', () => {
  let client: TestClient;
  let reference: Record<string, (value: unknown) => boolean>;

  beforeAll(async () => {
    client = await createTestClient(StrictModule);
    reference = await referenceFor(client);
  });
  afterAll(() => client.close());

  it.each(TOOLS)('$name: the server accepts exactly what the schema accepts', async ({ name, arbitrary }) => {
    const seen = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(arbitrary, async (input) => {
        const expected = reference[name](wire(input));
        const actual = await serverAccepts(client, name, input);
        seen[actual ? 'accepted' : 'rejected']++;
        expect(actual).toBe(expected);
      }),
      { numRuns: 150 },
    );
    // The generators must exercise both sides of the contract.
    expect(seen.accepted).toBeGreaterThan(10);
    expect(seen.rejected).toBeGreaterThan(10);
  });
});

describe('lenient mode accepts every schema-valid input', () => {
  let client: TestClient;
  let reference: Record<string, (value: unknown) => boolean>;

  beforeAll(async () => {
    client = await createTestClient(LenientModule);
    reference = await referenceFor(client);
  });
  afterAll(() => client.close());

  it.each(TOOLS)('$name: schema-valid ⇒ accepted', async ({ name, arbitrary }) => {
    await fc.assert(
      fc.asyncProperty(arbitrary, async (input) => {
        fc.pre(reference[name](wire(input)));
        expect(await serverAccepts(client, name, input)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
