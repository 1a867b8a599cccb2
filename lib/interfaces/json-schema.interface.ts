/** A JSON Schema (2020-12) object. Kept loose on purpose: users pass partial schemas that are merged. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * How the `$ref`s of advertised tool schemas are treated (`McpModule.forRoot({ schemaRefs })`): by default every
 * local `$ref` is inlined, recursive ones `recursionDepth` times (default 3, then `{}`, any value), so clients
 * need no resolver; `'keep'` advertises schemas as they are built (`$defs` and `$ref` for recursive DTOs).
 */
export type SchemaRefs = 'keep' | { readonly recursionDepth?: number };

/**
 * The keywords of JSON Schema 2020-12 whose values are subschemas, by shape: one schema, a list of them, or an
 * object of them by name. Every walker of schemas (the $ref inliner, the OpenAPI converter) reads this one list.
 */
export const SUBSCHEMA_KEYWORDS = {
  one: ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'],
  list: ['allOf', 'anyOf', 'oneOf', 'prefixItems'],
  map: ['properties', 'patternProperties', 'dependentSchemas'],
} as const;
