/** A JSON Schema (2020-12) object. Kept loose on purpose: users pass partial schemas that are merged. */
export type JsonSchema = { [keyword: string]: unknown };

/**
 * How the `$ref`s of advertised tool schemas are treated (`McpModule.forRoot({ schemaRefs })`): by default every
 * local `$ref` is inlined, recursive ones `recursionDepth` times (default 3, then `{}`, any value), so clients
 * need no resolver; `'keep'` advertises schemas as they are built (`$defs` and `$ref` for recursive DTOs).
 */
export type SchemaRefs = 'keep' | { readonly recursionDepth?: number };
