import fc from 'fast-check';
import type { JsonSchema } from '../../lib/interfaces';
import { SchemaCompiler, formatIssues } from '../../lib/validation';
import { interpretedValidator } from '../../lib/validation/interpreted';

/**
 * Where code generation is refused (Cloudflare Workers), a schema known only at run time (a proxied server's) is
 * interpreted by @cfworker/json-schema instead of compiled by ajv (issue 39, item 3). Clients must not tell
 * the two apart: for each schema below, both accept the same values, name the same issues in the same words
 * (issue-format), and lenient input drops the same unknown properties.
 */
const SCHEMAS: Record<string, JsonSchema> = {
  scalars: {
    type: 'object',
    properties: {
      days: { type: 'integer', minimum: 1, maximum: 14 },
      name: { type: 'string', minLength: 2, maxLength: 5, pattern: '^[a-z]+$' },
      ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
      mode: { enum: ['a', 'b', 3] },
      fixed: { const: 'x' },
      email: { type: 'string', format: 'email' },
      day: { type: 'string', format: 'date' },
      id: { type: 'string', format: 'uuid' },
      flag: { type: 'boolean' },
      maybe: { type: ['string', 'null'] },
    },
    required: ['days', 'name'],
    additionalProperties: false,
  },
  arrays: {
    type: 'object',
    properties: {
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 3,
        uniqueItems: true,
        items: { type: 'object', properties: { sku: { type: 'string' }, qty: { type: 'integer', minimum: 1 } }, required: ['sku', 'qty'], additionalProperties: false },
      },
      tags: { type: 'array', items: { type: 'string' }, uniqueItems: true },
      pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] },
    },
    required: ['items'],
  },
  references: {
    type: 'object',
    properties: { home: { $ref: '#/$defs/address' }, others: { type: 'array', items: { $ref: '#/$defs/address' } } },
    $defs: { address: { type: 'object', properties: { city: { type: 'string', minLength: 1 }, zip: { type: 'integer', minimum: 1000 } }, required: ['city'], additionalProperties: false } },
  },
  alternatives: {
    type: 'object',
    properties: {
      v: { anyOf: [{ type: 'string', maxLength: 3 }, { type: 'integer', minimum: 10 }] },
      w: { oneOf: [{ type: 'string' }, { type: 'number' }] },
      n: { not: { type: 'null' } },
    },
  },
  objects: {
    type: 'object',
    properties: { meta: { type: 'object', minProperties: 1, maxProperties: 2 }, kind: { type: 'string' }, x: { type: 'number' }, a: {}, b: {}, c: {} },
    dependentRequired: { a: ['b'] },
    if: { properties: { kind: { const: 'x' } }, required: ['kind'] },
    then: { required: ['x'] },
  },
  draft07: {
    $schema: 'http://json-schema.org/draft-07/schema#',
    type: 'object',
    properties: { n: { type: 'number', maximum: 5 }, s: { type: 'string', enum: ['a'] }, list: { type: 'array', items: { type: 'integer' }, maxItems: 2 } },
    required: ['n'],
    additionalProperties: false,
  },
};

const INSTANCES: Record<keyof typeof SCHEMAS, unknown[]> = {
  scalars: [
    { days: 3, name: 'ada' },
    {},
    { days: 0, name: 'a' },
    { days: 15, name: 'toolong' },
    { days: 2.5, name: 'ABC' },
    { days: '3', name: 3 },
    { days: 1, name: 'ok', ratio: 0.5, mode: 3, fixed: 'x', email: 'a@example.com', day: '2026-01-31', id: '123e4567-e89b-12d3-a456-426614174000', flag: true, maybe: null },
    { days: 1, name: 'ok', ratio: 0, mode: 'c', fixed: 'y', email: 'nope', day: '2026-02-30', id: 'x', flag: 'yes', maybe: 1 },
    { days: 1, name: 'ok', ratio: 1 },
    { days: 1, name: 'ok', ratio: 0.3 },
    { days: 1, name: 'ok', extra: 1, other: 'x' },
    [],
    null,
    'text',
  ],
  arrays: [
    { items: [{ sku: 'a', qty: 1 }] },
    { items: [] },
    { items: [{ sku: 'a', qty: 1 }, { sku: 'a', qty: 1 }] },
    { items: [{ sku: 'a', qty: 0 }, { qty: 'x' }, { sku: 'b', qty: 2, extra: true }, { sku: 'c', qty: 3 }] },
    { items: 'x', tags: ['a', 'b', 'a', 'b'] },
    { items: [{ sku: 'a', qty: 1 }], tags: ['a', 'b', 'b', 'a'], pair: [1, 'x', true] },
    { items: [{ sku: 'a', qty: 1 }], tags: [1, 'a'], pair: ['a', 2] },
    // Duplicates of another type than the items' are not compared (ajv's loop skips them): found by fast-check.
    { tags: [true, true] },
    { tags: [true, true, 'a', 'a', 3] },
  ],
  references: [
    { home: { city: 'Paris' } },
    { home: {} },
    { home: { city: '', zip: 12 }, others: [{ city: 'x' }, { zip: 'y' }, 3] },
    { home: { city: 'x', street: 'y' } },
  ],
  alternatives: [{ v: 'abc', w: 'x', n: 1 }, { v: 'abcd' }, { v: 5 }, { v: true, w: null }, { n: null }, { v: 10, w: 1 }],
  objects: [
    { meta: { a: 1 } },
    { meta: {} },
    { meta: { a: 1, b: 2, c: 3 } },
    { a: 1 },
    { a: 1, b: 2 },
    { kind: 'x' },
    { kind: 'x', x: 1 },
    { kind: 'y' },
  ],
  draft07: [{ n: 1 }, { n: 6, s: 'b' }, {}, { n: 'x', list: [1, 2, 3.5] }, { n: 1, extra: 1 }],
};

const ajv = new SchemaCompiler(false);
// A JSON copy, as a call's arguments are: structuredClone would give objects of another realm than jest's.
const clone = <T>(value: T): T => (value === undefined ? value : JSON.parse(JSON.stringify(value)));
const dialectOf = (schema: JsonSchema) => (typeof schema.$schema === 'string' && /draft-07/.test(schema.$schema) ? '07' : '2020');

/** What a client can observe of one validation: accepted or not, and the issue lines. */
function observed(validate: ((data: unknown) => boolean) & { errors?: any }, value: unknown) {
  const copy = clone(value);
  const ok = validate(copy);
  return { ok, issues: ok ? [] : formatIssues(validate.errors ?? []).sort() };
}

function agreement(name: string, value: unknown) {
  const schema = SCHEMAS[name];
  const reporting = observed(ajv.compileReporting(schema), value);
  const interpreted = observed(interpretedValidator(schema, dialectOf(schema), true, false), value);
  const first = { ajv: ajv.compile(schema)(clone(value)), interpreted: interpretedValidator(schema, dialectOf(schema), false, false)(clone(value)) };
  return { reporting, interpreted, first };
}

describe('interpreted validation (no code generation) agrees with ajv', () => {
  for (const [name, values] of Object.entries(INSTANCES)) {
    it.each(values.map((value) => [JSON.stringify(value), value]))(`${name}: %s`, (_label, value) => {
      const { reporting, interpreted, first } = agreement(name, value);
      expect(interpreted).toEqual(reporting);
      expect(first.interpreted).toBe(first.ajv);
      expect(first.ajv).toBe(reporting.ok);
    });
  }

  it('words the issues as ajv does (a sample, literally)', () => {
    expect(agreement('scalars', { days: 15, name: 'toolong', extra: 1 }).interpreted.issues).toEqual(
      ['days: must not be greater than 14', 'extra: is not an accepted argument', 'name: must be at most 5 characters long'],
    );
    expect(agreement('scalars', { days: 3, name: 'Ab1' }).interpreted.issues).toEqual(['name: must match the pattern ^[a-z]+$']);
    expect(agreement('arrays', { items: [{ sku: 'a', qty: 0 }] }).interpreted.issues).toEqual(['items[0].qty: must not be less than 1']);
    expect(agreement('arrays', { items: [{ sku: 'a', qty: 1 }], tags: ['a', 'b', 'b', 'a'] }).interpreted.issues).toEqual(['tags: must not contain duplicate items (items 1 and 2 are equal)']);
  });

  it('agrees on random values (fast-check)', () => {
    const leaf = fc.oneof(
      fc.integer({ min: -3, max: 20 }),
      fc.constantFrom(0.25, 0.5, 0.3, 1, 2.5),
      fc.string({ maxLength: 6 }),
      fc.constantFrom('a', 'b', 'x', 'ada', 'Paris', '2026-01-31', 'a@example.com'),
      fc.boolean(),
      fc.constant(null),
    );
    const value = fc.letrec((tie) => ({
      any: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, leaf, tie('array'), tie('object')),
      array: fc.array(tie('any'), { maxLength: 4 }),
      object: fc.dictionary(fc.constantFrom('days', 'name', 'ratio', 'mode', 'items', 'sku', 'qty', 'tags', 'home', 'city', 'zip', 'v', 'w', 'n', 'meta', 'kind', 'x', 'a', 'b', 's', 'list', 'extra'), tie('any'), { maxKeys: 5 }),
    })).object;
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(SCHEMAS)), value, (name, instance) => {
        const { reporting, interpreted, first } = agreement(name, instance);
        expect(interpreted).toEqual(reporting);
        expect(first.interpreted).toBe(first.ajv);
      }),
      { numRuns: 2_000 },
    );
  });

  it('drops unknown properties as ajv does in lenient mode (removeAdditional), nested and through references', () => {
    const lenient = new SchemaCompiler(true);
    for (const [name, value] of [
      ['scalars', { days: 1, name: 'ok', extra: 1 }],
      ['arrays', { items: [{ sku: 'a', qty: 1, extra: 2 }], more: 1 }],
      ['references', { home: { city: 'x', street: 'y' }, others: [{ city: 'y', zip: 1234, floor: 3 }] }],
      ['draft07', { n: 1, extra: 'x' }],
    ] as const) {
      const schema = SCHEMAS[name];
      const byAjv = clone(value) as unknown;
      const byInterpreter = clone(value) as unknown;
      const accepted = lenient.compile(schema)(byAjv);
      expect(interpretedValidator(schema, dialectOf(schema), false, true)(byInterpreter)).toBe(accepted);
      expect(byInterpreter).toEqual(byAjv);
    }
  });

  it('refuses, as ajv does, a reference that does not resolve and a pattern that is no regular expression', () => {
    expect(() => interpretedValidator({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } }, '2020', false, false)).toThrow(/can't resolve reference #\/\$defs\/missing/);
    expect(() => interpretedValidator({ type: 'string', pattern: '(' }, '2020', false, false)).toThrow(/Invalid regular expression/);
  });
});
