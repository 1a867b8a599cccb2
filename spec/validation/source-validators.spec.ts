import { SchemaCompiler } from '../../lib/validation';
import { SOURCE_VALIDATOR_BYTES } from '../../lib/validation/validator-store';
import type { JsonSchema } from '../../lib/interfaces';

/**
 * The validators of schemas known only at run time (a proxied remote's, new at each of its list_changed) are kept
 * per source and bounded by schema text; the application's own are kept for good (issue 41, item 9). The whole
 * attack, through a real remote and a gateway process, is spec/proxy/proxy-schema-churn.e2e.spec.ts.
 */
const remote = "the remote MCP server 'churn' (stdio: node churn.js)";
const other = "the remote MCP server 'steady' (stdio: node steady.js)";

/** A schema of about 8 KB (mostly its descriptions), different for each `n`. */
const schemaOf = (n: number): JsonSchema => ({
  type: 'object',
  properties: Object.fromEntries(Array.from({ length: 12 }, (_, j) => [`field_${n}_${j}`, { type: 'string', maxLength: 10 + j, description: `field ${j} of listing ${n}: ${'a long description '.repeat(32)}` }])),
  required: [`field_${n}_0`],
});

describe('SchemaCompiler: the validators of runtime schemas, per source and bounded', () => {
  it('keeps a source under its bound however many schemas it sends, never dropping the application’s own validators', () => {
    const application = new SchemaCompiler(true);
    const own = application.compile({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] });
    const steady = application.forRuntimeSchemas(other);
    const steadyValidator = steady.compile(schemaOf(-1));
    const churn = application.forRuntimeSchemas(remote);
    const text = 300 * JSON.stringify(schemaOf(0)).length;
    expect(text).toBeGreaterThan(2 * SOURCE_VALIDATOR_BYTES);
    for (let n = 0; n < 300; n++) {
      const validate = churn.compile(schemaOf(n));
      expect(validate({ [`field_${n}_0`]: 'ok' })).toBe(true);
      expect(validate({ [`field_${n}_0`]: 'far too long a value' })).toBe(false);
      const held = application.sourceBytes(remote)!;
      expect(held.kept).toBeLessThanOrEqual(SOURCE_VALIDATOR_BYTES);
      expect(held.compiled).toBeLessThanOrEqual(SOURCE_VALIDATOR_BYTES);
    }
    // The application's validator and the other source's are the ones made before: never pushed out.
    expect(application.compile({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] })).toBe(own);
    expect(steady.compile(schemaOf(-1))).toBe(steadyValidator);
    expect(application.sourceBytes(other)!.kept).toBeGreaterThan(0);
  });

  it('lets a source reuse the application’s validator of the same schema, never the other way round', () => {
    const application = new SchemaCompiler(false);
    const shared: JsonSchema = { type: 'object', properties: { q: { type: 'string' } } };
    const own = application.compile(shared);
    expect(application.forRuntimeSchemas(remote).compile({ ...shared })).toBe(own);
    const theirs = application.forRuntimeSchemas(remote).compile(schemaOf(7));
    expect(application.compile(schemaOf(7))).not.toBe(theirs);
  });

  it('gives one compiler per origin, and the same one for the same origin', () => {
    const application = new SchemaCompiler(true);
    expect(application.forRuntimeSchemas(remote)).toBe(application.forRuntimeSchemas(remote));
    expect(application.forRuntimeSchemas(remote)).not.toBe(application.forRuntimeSchemas(other));
    expect(application.forRuntimeSchemas(remote).forRuntimeSchemas(remote)).toBe(application.forRuntimeSchemas(remote));
    expect(application.forRuntimeSchemas(remote).interprets).toBe(true);
    expect(application.interprets).toBe(false);
  });
});
