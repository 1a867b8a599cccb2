import type { JsonSchema } from './json-schema.interface';
import type { StandardSchema } from './standard-schema.interface';
import type { EnumLike, TypeHint } from './type-hint.interface';

/** Options of `@Param()`. Explicit options always win over what is inferred from the reflected type. */
export interface ParamOptions {
  description?: string;
  /** The argument may be absent; the method then receives `undefined`. */
  optional?: boolean;
  /** Value used when the argument is absent; implies `optional`. */
  default?: unknown;
  /** The type when reflection cannot tell: `[String]`, `[ItemDto]`, `'integer'`, a DTO class. */
  type?: TypeHint;
  /** Allowed values: a TypeScript enum object or a list. */
  enum?: EnumLike;
  /**
   * A partial JSON Schema merged last, over everything inferred; or a Standard Schema (zod, valibot with
   * `@valibot/to-json-schema`, arktype): its JSON Schema (input side) is merged so, and its library checks the
   * argument and parses it (the method receives its output: defaults applied, transforms run).
   */
  schema?: JsonSchema | StandardSchema;
  /**
   * Mirrors this tool argument into the HTTP header `Mcp-Param-<header>` (SEP-2243, protocol 2026-07-28), so
   * gateways can route on it without reading the body: the input schema carries `"x-mcp-header": header`, and
   * a 2026-07-28 HTTP `tools/call` whose header is missing or disagrees with the argument is refused (HTTP 400,
   * -32020). An RFC 9110 token (letters, digits, `!#$%&'*+-.^_\`|~`), unique per tool ignoring case; the
   * argument must be a string, integer or boolean. Tools only.
   */
  header?: string;
}

/** Options of the property decorator `@Field()` on DTO classes. */
export interface FieldOptions {
  description?: string;
  /** The property may be absent (what class-validator's `@IsOptional()` says), for DTOs declared with `@Field()` alone. */
  optional?: boolean;
  type?: TypeHint;
  enum?: EnumLike;
  schema?: JsonSchema;
}
