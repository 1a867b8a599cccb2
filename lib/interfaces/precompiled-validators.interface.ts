/**
 * Argument and output validators compiled ahead of time (`mcp-reflect validators <entry>` writes them as ajv
 * standalone code): an application given them compiles no validator at start, and runs where code generation
 * is not allowed (Cloudflare Workers). Each is keyed by what it validates — the schema's exact JSON and how it is
 * checked — so a validator can only ever be used for the very schema it was made from: a schema that changed
 * finds none and is compiled as usual (or, where nothing can be compiled, fails naming the fix).
 */
export interface PrecompiledValidators {
  readonly version: 1;
  readonly validators: Readonly<Record<string, (data: unknown) => boolean>>;
}
