import 'reflect-metadata';
import Ajv2020 from 'ajv/dist/2020';
import { type } from 'arktype';
import fc from 'fast-check';
import { Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as z from 'zod';

// Issue 42 item 4: a Standard Schema tool is validated by its library, and advertised as the JSON Schema that
// library derives. They must agree: what an independent JSON Schema 2020-12 validator accepts under the
// advertised schema, the server accepts, and the other way round; over generated values, per library.

const zodBook = z.object({
  nights: z.number().int().min(1).max(14),
  guests: z.number().int().min(1).max(4).default(1),
  room: z.enum(['single', 'double', 'suite']),
  code: z.string().regex(/^[A-Z]{3}$/),
  name: z.string().min(2).max(6),
  extras: z.array(z.string().max(4)).max(2).optional(),
  contact: z.object({ city: z.string().min(1), zip: z.number().int().min(1000).max(99999).optional() }),
  price: z.number().gt(0).default(10),
});

const valibotBook = toStandardJsonSchema(
  v.object({
    nights: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14)),
    guests: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(4)), 1),
    room: v.picklist(['single', 'double', 'suite']),
    code: v.pipe(v.string(), v.regex(/^[A-Z]{3}$/)),
    name: v.pipe(v.string(), v.minLength(2), v.maxLength(6)),
    extras: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(4))), v.maxLength(2))),
    contact: v.object({ city: v.pipe(v.string(), v.minLength(1)), zip: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(99999))) }),
    price: v.optional(v.pipe(v.number(), v.gtValue(0)), 10),
  }),
);

const arkBook = type({
  nights: '1 <= number.integer <= 14',
  'guests?': '1 <= number.integer <= 4',
  room: "'single' | 'double' | 'suite'",
  code: /^[A-Z]{3}$/,
  name: '2 <= string <= 6',
  'extras?': type('string <= 4').array().atMostLength(2),
  contact: { city: 'string >= 1', 'zip?': '1000 <= number.integer <= 99999' },
  'price?': 'number > 0',
});

@Injectable()
class Books {
  @Tool({ parameters: zodBook })
  zod_book() {
    return 'ok';
  }

  @Tool({ parameters: valibotBook })
  valibot_book() {
    return 'ok';
  }

  @Tool({ parameters: arkBook })
  ark_book() {
    return 'ok';
  }
}

/** `@Param({ schema })` beside plain `@Param()`s: the JSON Schema of the whole input, then each library. */
@Injectable()
class ParamBooks {
  @Tool()
  zod_params(
    @Param('nights', { schema: z.number().int().min(1).max(14) }) _nights: number,
    @Param('room', { schema: z.enum(['single', 'double', 'suite']) }) _room: string,
    @Param('code', { schema: z.string().regex(/^[A-Z]{3}$/) }) _code: string,
    @Param('name', { schema: z.string().min(2).max(6) }) _name: string,
    @Param('contact', { schema: z.object({ city: z.string().min(1), zip: z.number().int().min(1000).max(99999).optional() }) }) _contact: object,
    @Param('guests', { type: 'integer', optional: true, schema: { minimum: 1, maximum: 4 } }) _guests: number,
  ) {
    return 'ok';
  }

  @Tool()
  valibot_params(
    @Param('nights', { schema: toStandardJsonSchema(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(14))) }) _nights: number,
    @Param('room', { schema: toStandardJsonSchema(v.picklist(['single', 'double', 'suite'])) }) _room: string,
    @Param('code', { schema: toStandardJsonSchema(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/))) }) _code: string,
    @Param('name', { schema: toStandardJsonSchema(v.pipe(v.string(), v.minLength(2), v.maxLength(6))) }) _name: string,
    @Param('contact', { schema: toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(1)), zip: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1000), v.maxValue(99999))) })) }) _contact: object,
    @Param('guests', { type: 'integer', optional: true, schema: { minimum: 1, maximum: 4 } }) _guests: number,
  ) {
    return 'ok';
  }

  @Tool()
  ark_params(
    @Param('nights', { schema: type('1 <= number.integer <= 14') }) _nights: number,
    @Param('room', { schema: type("'single' | 'double' | 'suite'") }) _room: string,
    @Param('code', { schema: type(/^[A-Z]{3}$/) }) _code: string,
    @Param('name', { schema: type('2 <= string <= 6') }) _name: string,
    @Param('contact', { schema: type({ city: 'string >= 1', 'zip?': '1000 <= number.integer <= 99999' }) }) _contact: object,
    @Param('guests', { type: 'integer', optional: true, schema: { minimum: 1, maximum: 4 } }) _guests: number,
  ) {
    return 'ok';
  }
}

// Strict input validation: lenient coercion (which accepts "3" for 3 on purpose) is not what is measured here.
@Module({ imports: [McpModule.forRoot({ name: 'standard-agreement', version: '1.0.0', strictInputValidation: true })], providers: [Books, ParamBooks] })
class AgreementModule {}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const noise: fc.Arbitrary<Json> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 200 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e6, max: 1e6 }),
  fc.string({ maxLength: 8 }),
  fc.constantFrom('10', 'true', '', '["a"]'),
  fc.constant([] as Json[]),
  fc.constant({} as Json),
);

const mixed = <T extends Json>(valid: fc.Arbitrary<T>, ...edges: Json[]): fc.Arbitrary<Json> =>
  fc.oneof({ arbitrary: valid, weight: 3 }, { arbitrary: fc.constantFrom(...edges), weight: 2 }, { arbitrary: noise, weight: 1 });

const validContact = fc.record({ city: fc.string({ minLength: 1, maxLength: 5 }), zip: fc.integer({ min: 1000, max: 99999 }) }, { requiredKeys: ['city'] });
const validBook = fc.record(
  {
    nights: fc.integer({ min: 1, max: 14 }),
    guests: fc.integer({ min: 1, max: 4 }),
    room: fc.constantFrom('single', 'double', 'suite'),
    code: fc.stringMatching(/^[A-Z]{3}$/),
    name: fc.string({ minLength: 2, maxLength: 6 }),
    extras: fc.array(fc.string({ maxLength: 4 }), { maxLength: 2 }),
    contact: validContact,
    price: fc.double({ min: 0.01, max: 1000, noNaN: true }),
  },
  { requiredKeys: ['nights', 'room', 'code', 'name', 'contact'] },
);
const mixedBook = fc.record(
  {
    nights: mixed(fc.integer({ min: -2, max: 20 }), 0, 1, 14, 15, 1.5),
    guests: mixed(fc.integer({ min: 0, max: 6 }), 0, 1, 4, 5),
    room: mixed(fc.constantFrom('single', 'double', 'suite'), 'Single', 'twin', ''),
    code: mixed(fc.string({ maxLength: 4 }), 'ABC', 'AB', 'ABCD', 'abc', 'A1C'),
    name: mixed(fc.string({ maxLength: 8 }), 'a', 'ab', 'abcdef', 'abcdefg'),
    extras: fc.oneof(fc.array(mixed(fc.string({ maxLength: 5 }), 'abcd', 'abcde', 3), { maxLength: 4 }), noise),
    contact: fc.oneof(
      validContact,
      fc.record({ city: mixed(fc.string({ maxLength: 3 }), ''), zip: mixed(fc.integer({ min: 0, max: 120000 }), 999, 1000, 99999, 100000, 1000.5) }, { requiredKeys: [] }),
      noise,
    ),
    price: mixed(fc.double({ min: -10, max: 10, noNaN: true }), 0, -0.001, 0.001),
  },
  { requiredKeys: [] },
);

/** One change to an otherwise valid input: a key removed, set to noise, or an unknown key added (maybe nested). */
const mutated = fc.tuple(validBook, fc.constantFrom('delete', 'set', 'extra', 'nestedExtra'), fc.nat(), noise).map(([input, how, pick, value]) => {
  const copy = structuredClone(input) as Record<string, Json>;
  const keys = Object.keys(copy);
  const key = keys[pick % keys.length];
  if (how === 'delete') delete copy[key];
  else if (how === 'set') copy[key] = value;
  else if (how === 'extra') copy[['extra', 'Nights', 'zip'][pick % 3]] = value;
  else (copy.contact as Record<string, Json>).unexpected = value;
  return copy;
});

const arbitrary: fc.Arbitrary<Record<string, Json>> = fc.oneof(validBook as fc.Arbitrary<Record<string, Json>>, mutated, mixedBook as fc.Arbitrary<Record<string, Json>>);

/** The `_params` tools declare no `extras` or `price` (their input is closed: `additionalProperties: false`). */
const forParams = arbitrary.map(({ extras: _extras, price: _price, ...rest }) => rest);

/** What travels on the wire: JSON, as a real client sends it. */
const wire = (value: Record<string, Json>): Record<string, Json> => JSON.parse(JSON.stringify(value));

async function serverAccepts(client: TestClient, name: string, args: Record<string, Json>): Promise<boolean> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) {
    const text = (result.content as { text: string }[])[0].text;
    expect(text.startsWith(`Invalid arguments for tool ${name}: `)).toBe(true);
    return false;
  }
  expect(result.content).toEqual([{ type: 'text', text: 'ok' }]);
  return true;
}

describe('a Standard Schema tool agrees with the JSON Schema it advertises', () => {
  let client: TestClient;
  let reference: Record<string, (value: unknown) => boolean>;

  beforeAll(async () => {
    client = await createTestClient(AgreementModule);
    const { tools } = await client.listTools();
    // An independent validator of the advertised schema: a fresh Ajv 2020 instance, none of the library's code.
    reference = Object.fromEntries(tools.map((t) => [t.name, new Ajv2020({ strict: false }).compile(t.inputSchema) as (value: unknown) => boolean]));
  });
  afterAll(() => client.close());

  it.each(['zod_book', 'valibot_book', 'ark_book', 'zod_params', 'valibot_params', 'ark_params'])('%s: the library accepts exactly what the advertised schema accepts', async (name) => {
    const seen = { accepted: 0, rejected: 0 };
    await fc.assert(
      fc.asyncProperty(name.endsWith('_params') ? forParams : arbitrary, async (input) => {
        const args = wire(input);
        const expected = reference[name](args);
        const actual = await serverAccepts(client, name, args);
        seen[actual ? 'accepted' : 'rejected']++;
        expect(actual).toBe(expected);
      }),
      { numRuns: 200 },
    );
    expect(seen.accepted).toBeGreaterThan(10);
    expect(seen.rejected).toBeGreaterThan(10);
  });
});
