import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020 from 'ajv/dist/2020';

const root = path.resolve(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { generate } = require(path.join(root, 'tools', 'generate-meta-validator.js')) as { generate: () => string };

describe('the precompiled 2020-12 meta-schema validator', () => {
  it('is what the installed ajv generates (run `node tools/generate-meta-validator.js` after an ajv upgrade)', () => {
    expect(readFileSync(path.join(root, 'lib', 'validation', 'meta-schema.generated.ts'), 'utf8')).toBe(generate());
  });

  it("judges schemas as ajv's own meta-schema check does", () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const precompiled = require('../../lib/validation/meta-schema.generated') as ((schema: unknown) => boolean) & { errors?: unknown };
    const ajv = new Ajv2020({ strict: false });
    const samples: unknown[] = [
      { type: 'object', properties: { a: { type: 'string', minLength: 1 } }, required: ['a'] },
      { minLength: 'two' },
      { type: 'nope' },
      { $defs: { A: { type: 'array', items: { $ref: '#/$defs/A' } } }, $ref: '#/$defs/A' },
      { maxItems: -1 },
      { enum: [] },
      { anyOf: [{ type: 'string' }, { type: 'number', minimum: 0 }] },
      { properties: { a: { pattern: 3 } } },
    ];
    for (const schema of samples) {
      const expected = ajv.validateSchema(schema as object) as boolean;
      expect([schema, precompiled(schema)]).toEqual([schema, expected]);
      if (!expected) expect(ajv.errorsText(precompiled.errors as never)).toBe(ajv.errorsText(ajv.errors));
    }
  });
});
