import type { JsonSchema } from '../interfaces';

/** Rewrites a value in place toward its schema; returns the (possibly new) value. */
export type Coercer = (value: unknown) => unknown;

/**
 * Which strings become numbers at `integer` positions. `'numeric'` (tool and prompt arguments): any numeric
 * string (`"1e3"`, `"007"`) unless it reads as an integer beyond the safe range. `'canonical'` (URI template
 * variables, where one resource should have one URI): only `-?(0|[1-9][0-9]*)` within the safe range.
 */
export type IntegerCoercion = 'numeric' | 'canonical';

// No surrounding blanks: `" 7"` is not a number (nor is `""`).
const NUMERIC = /^-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const CANONICAL_INTEGER = /^-?(0|[1-9]\d*)$/;

/**
 * Compiles the lenient-mode coercion for a schema, once: "10" → 10, "true" → true, 5 → "5" for strings,
 * and a JSON-encoded object or array string parsed for object/array positions. Nothing else is guessed:
 * a value that does not coerce cleanly is left for the validator to reject with a clear message.
 */
export function compileCoercer(schema: JsonSchema, integers: IntegerCoercion = 'numeric'): Coercer | undefined {
  const defs = (schema.$defs ?? {}) as Record<string, JsonSchema>;
  const cache = new Map<JsonSchema, Coercer | undefined>();

  const compile = (node: JsonSchema): Coercer | undefined => {
    if (cache.has(node)) return cache.get(node);
    const holder: { fn?: Coercer } = {};
    cache.set(node, (v) => holder.fn!(v)); // late-bound for recursive $ref
    const fn = build(node);
    cache.set(node, fn);
    holder.fn = fn ?? ((v) => v);
    return fn;
  };

  const build = (node: JsonSchema): Coercer | undefined => {
    if (typeof node.$ref === 'string') {
      const target = defs[node.$ref.replace('#/$defs/', '')];
      return target ? compile(target) : undefined;
    }
    switch (node.type) {
      case 'number':
        return toNumber;
      case 'integer':
        return integers === 'canonical' ? toCanonicalInteger : toInteger;
      case 'boolean':
        return toBoolean;
      case 'string':
        return toText;
      case 'array': {
        const items = typeof node.items === 'object' && node.items ? compile(node.items as JsonSchema) : undefined;
        return (value) => {
          const parsed = parseJson(value, '[');
          if (!items || !Array.isArray(parsed)) return parsed;
          for (let i = 0; i < parsed.length; i++) parsed[i] = items(parsed[i]);
          return parsed;
        };
      }
      case 'object': {
        const props = Object.entries((node.properties ?? {}) as Record<string, JsonSchema>)
          .map(([key, child]) => [key, compile(child)] as const)
          .filter((entry): entry is readonly [string, Coercer] => entry[1] !== undefined);
        return (value) => {
          const parsed = parseJson(value, '{');
          if (!isRecord(parsed)) return parsed;
          for (const [key, coerce] of props) if (key in parsed) parsed[key] = coerce(parsed[key]);
          return parsed;
        };
      }
      default:
        return undefined;
    }
  };

  return compile(schema);
}

function toNumber(value: unknown): unknown {
  if (typeof value !== 'string' || !NUMERIC.test(value)) return value;
  const number = Number(value);
  return Number.isFinite(number) ? number : value; // "1e400" is no JSON number: leave it for the validator
}

/** "2.5" still becomes 2.5 (the validator then says `must be an integer`); an integer past 2^53 stays text. */
function toInteger(value: unknown): unknown {
  const number = toNumber(value);
  return typeof number === 'number' && Number.isInteger(number) && !Number.isSafeInteger(number) ? value : number;
}

function toCanonicalInteger(value: unknown): unknown {
  if (typeof value !== 'string' || !CANONICAL_INTEGER.test(value)) return value;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number || 0 : value; // "-0" reads as 0
}

function toBoolean(value: unknown): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function toText(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : value;
}

function parseJson(value: unknown, opener: string): unknown {
  if (typeof value !== 'string' || !value.trimStart().startsWith(opener)) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
