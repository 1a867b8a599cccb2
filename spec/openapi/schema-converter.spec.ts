import Ajv2020 from 'ajv/dist/2020';
import { DocumentProblem } from '../../lib/openapi/openapi.messages';
import { MAX_DOCUMENT_NODES, MAX_DOCUMENT_TEXT, MAX_SCHEMA_NODES, SchemaConverter } from '../../lib/openapi/schema-converter';

/** OpenAPI schemas (as the $ref parser leaves them: shared and recursive objects) → 2020-12 without $ref. */
const converterOf = (maxDepth: number) => new SchemaConverter({ maxDepth, deadline: Infinity, documentTimeout: 10_000 });

describe('SchemaConverter', () => {
  const convert = (schema: unknown, use: 'input' | 'output' = 'input', depth = 32) => converterOf(depth).convert(schema, use, '#/x');
  const valid = (schema: object) => expect(new Ajv2020({ strict: false }).validateSchema(schema)).toBe(true);

  it("says OpenAPI 3.0's nullable and boolean exclusive bounds the 2020-12 way", () => {
    expect(convert({ type: 'string', enum: ['a', 'b'], nullable: true })).toEqual({ type: ['string', 'null'], enum: ['a', 'b', null] });
    expect(convert({ allOf: [{ type: 'object' }], nullable: true })).toEqual({ anyOf: [{ allOf: [{ type: 'object' }] }, { type: 'null' }] });
    expect(convert({ type: 'number', minimum: 1, exclusiveMinimum: true, maximum: 9, exclusiveMaximum: false })).toEqual({ type: 'number', exclusiveMinimum: 1, maximum: 9 });
    expect(convert({ type: 'number', exclusiveMaximum: true, maximum: 9 })).toEqual({ type: 'number', exclusiveMaximum: 9 });
    expect(convert({ type: 'number', exclusiveMaximum: 5 })).toEqual({ type: 'number', exclusiveMaximum: 5 }); // 3.1 already
  });

  it('keeps only JSON Schema keywords with well-formed values: no example, discriminator, xml, x-*, unknown formats or patterns ajv cannot compile', () => {
    const schema = convert({
      type: 'object',
      description: 'a pet',
      example: { name: 'Rex' },
      discriminator: { propertyName: 'kind' },
      xml: { name: 'pet' },
      externalDocs: { url: 'https://example.com' },
      'x-internal': true,
      required: true, // a common 3.0 mistake: required belongs to the parent, as a list
      properties: {
        name: { type: 'string', format: 'repo.nwo', pattern: '^\\-x$', minLength: -1, maxLength: 40 },
        id: { type: 'integer', format: 'int64', multipleOf: 0 },
        kind: { type: 'file' },
        items: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] },
      },
      additionalProperties: false,
    });
    expect(schema).toEqual({
      type: 'object',
      description: 'a pet',
      properties: {
        name: { type: 'string', maxLength: 40 },
        id: { type: 'integer', format: 'int64' },
        kind: {},
        items: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer' }] },
      },
      additionalProperties: false,
    });
    valid(schema);
  });

  it('leaves readOnly properties out of inputs and writeOnly ones out of outputs, with their required entries', () => {
    const user = { type: 'object', required: ['id', 'name', 'password'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' }, password: { type: 'string', writeOnly: true } } };
    expect(convert(user, 'input')).toEqual({ type: 'object', required: ['name', 'password'], properties: { name: { type: 'string' }, password: { type: 'string', writeOnly: true } } });
    expect(convert(user, 'output')).toEqual({ type: 'object', required: ['id', 'name'], properties: { id: { type: 'integer', readOnly: true }, name: { type: 'string' } } });
  });

  it('cuts a recursive schema where it recurs, with the permissive {}, and anything deeper than maxSchemaDepth', () => {
    const node: Record<string, unknown> = { type: 'object', properties: { name: { type: 'string' } } };
    (node.properties as Record<string, unknown>).children = { type: 'array', items: node };
    expect(convert(node)).toEqual({ type: 'object', properties: { name: { type: 'string' }, children: { type: 'array', items: {} } } });
    const a: Record<string, unknown> = { type: 'object' };
    const b = { type: 'object', properties: { a } };
    a.properties = { b };
    expect(convert(a)).toEqual({ type: 'object', properties: { b: { type: 'object', properties: { a: {} } } } });
    let deep: object = { type: 'string' };
    for (let i = 0; i < 10; i++) deep = { type: 'array', items: deep };
    expect(JSON.stringify(convert(deep, 'input', 3))).toBe('{"type":"array","items":{"type":"array","items":{"type":"array","items":{"type":"array","items":{}}}}}');
  });

  it('converts a shared schema once and shares the result, within the depth bound', () => {
    const pet = { type: 'object', properties: { name: { type: 'string' } } };
    const converter = converterOf(32);
    const list = converter.convert({ type: 'array', items: pet }, 'output', '#/a');
    const one = converter.convert(pet, 'output', '#/b');
    expect(list.items).toBe(one);
  });

  it('refuses a schema whose expanded form is too big (shared parts nested in shared parts), and a $ref left unresolved', () => {
    let level: object = { type: 'string' };
    for (let i = 0; i < 20; i++) level = { type: 'object', properties: { a: level, b: level } }; // 2^20 leaves once expanded
    expect(() => convert(level)).toThrow(DocumentProblem);
    expect(() => convert(level)).toThrow(`the schema expands to more than ${MAX_SCHEMA_NODES} nodes (schemas and values) once every shared part is written out where it is used`);
    expect(() => convert({ type: 'object', properties: { p: { $ref: 'other.yaml#/Pet' } } })).toThrow(
      "the $ref 'other.yaml#/Pet' points outside the document, and only references inside it are resolved",
    );
    // Within the bound one by one, not all together.
    let wide: object = { type: 'string' };
    for (let i = 0; i < 15; i++) wide = { type: 'object', properties: { a: wide, b: wide } }; // 65,535 each
    const converter = converterOf(32);
    expect(() => {
      for (let i = 0; i < 20; i++) converter.convert(wide, 'input', `#/op${i}`);
    }).toThrow(`the schemas of the operations served so far expand to more than ${MAX_DOCUMENT_NODES} nodes or ${MAX_DOCUMENT_TEXT} characters in all`);
    try {
      convert({ type: 'object', properties: { p: { $ref: 'other.yaml#/Pet' } } });
    } catch (error) {
      expect((error as DocumentProblem).pointer).toBe('#/x/properties/p');
    }
  });

  it('stops expanding when the load is past its deadline (documentTimeout), and reuses a branch cut for depth instead of expanding it again', () => {
    const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`p${i}`, { type: 'string' }])) };
    const late = new SchemaConverter({ maxDepth: 32, deadline: Date.now() - 1, documentTimeout: 250 });
    expect(() => late.convert(wide, 'input', '#/late')).toThrow('reading and converting it took longer than documentTimeout (250 ms)');
    // 40 levels, each the next twice: past maxDepth every branch is cut, and each cut branch is expanded once per depth.
    let dag: object = { type: 'string' };
    for (let i = 0; i < 40; i++) dag = { type: 'object', properties: { a: dag, b: dag } };
    const started = Date.now();
    expect(() => converterOf(32).convert(dag, 'input', '#/dag')).toThrow(`the schema expands to more than ${MAX_SCHEMA_NODES} nodes`);
    expect(converterOf(4).convert(dag, 'input', '#/dag')).toEqual(
      JSON.parse(JSON.stringify({ type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } } } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } }, b: { type: 'object', properties: { a: { type: 'object', properties: { a: {}, b: {} } }, b: { type: 'object', properties: { a: {}, b: {} } } } } } } } } } })),
    );
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('counts the values a schema holds, written out: a YAML alias bomb in enum or default is refused while it is measured', () => {
    let bomb: unknown[] = ['lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol', 'lol'];
    for (let i = 0; i < 9; i++) bomb = Array(10).fill(bomb); // 10^10 strings, 100 distinct arrays
    expect(() => convert({ type: 'array', default: bomb })).toThrow(`the schema expands to more than ${MAX_SCHEMA_NODES} nodes`);
    expect(() => convert({ enum: [bomb] })).toThrow(`the schema expands to more than ${MAX_SCHEMA_NODES} nodes`);
    const big = 'x'.repeat(1024 * 1024);
    expect(() => convert({ type: 'string', enum: Array(9).fill(big) })).toThrow('the schema expands to more than 8388608 characters of text');
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(() => convert({ default: cycle })).toThrow('a value there holds itself (a cycle)');
  });

  it('keeps boolean schemas where a schema may be one, and makes a root boolean an object schema', () => {
    expect(convert({ type: 'object', additionalProperties: true, properties: { never: false } })).toEqual({ type: 'object', additionalProperties: true, properties: { never: false } });
    expect(convert(true)).toEqual({});
    expect(convert(false)).toEqual({ not: {} });
  });
});
