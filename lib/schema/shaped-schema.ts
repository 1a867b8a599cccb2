import type { GeneratedType, JsonSchema } from '../interfaces';

/** Turns a validated JSON value into what the method receives (Date, DTO instance, arrays of them). */
export type Converter = (value: any) => unknown;

/** A schema plus the converter compiled beside it; `convert` is undefined when the JSON value is used as is. */
export interface ShapedSchema {
  readonly schema: JsonSchema;
  readonly convert?: Converter;
}

export const PRIMITIVE_TYPES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  ['string', 'string'],
  ['number', 'number'],
  ['integer', 'integer'],
  ['boolean', 'boolean'],
]);

export function toDate(value: string): Date {
  return new Date(value);
}

export function arrayOf(items: ShapedSchema, keywords: JsonSchema = {}): ShapedSchema {
  const convertItem = items.convert;
  return {
    schema: { type: 'array', items: items.schema, ...keywords },
    convert: convertItem ? (value: unknown[]) => value.map(convertItem) : undefined,
  };
}

/** Shallow merge where explicit keywords win; `items` of arrays merge one level deeper. */
export function mergeSchema(base: JsonSchema, over: JsonSchema | undefined): JsonSchema {
  if (!over) return base;
  const merged: JsonSchema = { ...base, ...over };
  if (isObject(base.items) && isObject(over.items)) merged.items = { ...base.items, ...over.items };
  return merged;
}

/** JSDoc the generator read: description, `@example`s, `@deprecated` (decorator options are merged after). */
export function documented(schema: JsonSchema, generated: GeneratedType | undefined): JsonSchema {
  if (!generated) return schema;
  const out: JsonSchema = { ...schema };
  if (generated.description !== undefined) out.description = generated.description;
  if (generated.examples !== undefined && generated.examples.length > 0) out.examples = [...generated.examples];
  if (generated.deprecated) out.deprecated = true;
  return out;
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
