import type { EnumLike, JsonSchema } from '../interfaces';

/**
 * The values of a TypeScript enum object or a value list. Numeric enums carry reverse mappings
 * (`E[0] === 'A'`), which are skipped.
 */
export function enumValues(entity: EnumLike | unknown): (string | number)[] {
  if (Array.isArray(entity)) return [...new Set(entity as (string | number)[])];
  if (!entity || typeof entity !== 'object') return [];
  const record = entity as Record<string, string | number>;
  const values = Object.keys(record)
    .filter((key) => isNaN(Number(key)))
    .map((key) => record[key]);
  return [...new Set(values)];
}

/** `enum` keywords with the narrowest `type` the values share. */
export function enumSchema(values: readonly (string | number)[]): JsonSchema {
  const kinds = new Set(values.map((v) => typeof v));
  if (kinds.size === 1 && kinds.has('string')) return { type: 'string', enum: [...values] };
  if (kinds.size === 1 && kinds.has('number')) {
    return { type: values.every(Number.isInteger) ? 'integer' : 'number', enum: [...values] };
  }
  return { enum: [...values] };
}
