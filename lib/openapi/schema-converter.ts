import { SUBSCHEMA_KEYWORDS, type JsonSchema } from '../interfaces';
import { DocumentProblem } from './openapi.messages';

/** An input schema leaves out `readOnly` properties (the API writes them), an output schema `writeOnly` ones. */
export type SchemaUse = 'input' | 'output';

/**
 * How big one advertised schema may grow once expanded (every shared sub-schema counted where it appears), and
 * all of a document's together: GitHub's REST description, 1,200 operations, has 4,200 in its largest and
 * 105,000 in all; a document that expands to many times that (shared schemas nested in shared schemas, YAML
 * aliases) would fill the memory of every `tools/list`.
 */
export const MAX_SCHEMA_NODES = 100_000;
export const MAX_DOCUMENT_NODES = 1_000_000;

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
/** The formats the application's validator knows (ajv-formats): any other is left out, not guessed at. */
const FORMATS = new Set([
  'date', 'time', 'date-time', 'iso-time', 'iso-date-time', 'duration', 'uri', 'uri-reference', 'uri-template', 'url', 'email', 'hostname',
  'ipv4', 'ipv6', 'regex', 'uuid', 'json-pointer', 'json-pointer-uri-fragment', 'relative-json-pointer', 'byte', 'int32', 'int64', 'float',
  'double', 'password', 'binary',
]);
const ONE = new Set<string>(SUBSCHEMA_KEYWORDS.one);
const LIST = new Set<string>(SUBSCHEMA_KEYWORDS.list);
const MAP = new Set<string>(SUBSCHEMA_KEYWORDS.map);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems', 'minProperties', 'maxProperties', 'minContains', 'maxContains']);
const NUMBERS = new Set(['minimum', 'maximum']);
const STRINGS = new Set(['title', 'description', 'contentEncoding', 'contentMediaType']);
const FLAGS = new Set(['uniqueItems', 'deprecated', 'readOnly', 'writeOnly']);
const VALUES = new Set(['default', 'const']);

interface Converted {
  /** A boolean stays one inside a schema (`additionalProperties: false`); at the root it becomes `{}` or `{ not: {} }`. */
  readonly schema: JsonSchema | boolean;
  /** Levels below this one (0 for a leaf): a memoized schema is reused only where it still fits `maxDepth`. */
  readonly height: number;
  /** Schemas in its expanded form. */
  readonly size: number;
  /** Something inside was cut for recurring or lying too deep: it depends on where it was met, so it is not memoized. */
  readonly cut: boolean;
}

/**
 * OpenAPI 3.0 and 3.1 schemas (with their `$ref`s already resolved into shared or recursive objects) as JSON
 * Schema 2020-12 with no `$ref` at all, which a client can use without resolving anything:
 * - only JSON Schema keywords with well-formed values are kept (`nullable` becomes a `null` type, 3.0's boolean
 *   `exclusiveMinimum`/`exclusiveMaximum` their numeric form; `example`, `discriminator`, `xml`, `x-*` and
 *   unknown formats are left out, as are patterns a Unicode RegExp cannot compile);
 * - a schema met again inside itself (recursion) is cut there with the permissive `{}`, and so is anything
 *   nested deeper than `maxDepth`;
 * - a shared schema is converted once per use and shared in the result (bounded once expanded: {@link MAX_SCHEMA_NODES}).
 */
export class SchemaConverter {
  private readonly memo: Record<SchemaUse, WeakMap<object, Converted>> = { input: new WeakMap(), output: new WeakMap() };
  /** Schemas given out so far, expanded. */
  private total = 0;

  constructor(private readonly maxDepth: number) {}

  /** The 2020-12 form of `source`, found at `pointer` (for messages). */
  convert(source: unknown, use: SchemaUse, pointer: string): JsonSchema {
    const converted = this.walk(source, use, 0, new Set(), pointer);
    if (typeof converted.schema === 'boolean') return converted.schema ? {} : { not: {} };
    if (converted.size > MAX_SCHEMA_NODES) {
      throw new DocumentProblem(
        `the schema expands to more than ${MAX_SCHEMA_NODES} schemas once every shared part is written out where it is used`,
        'simplify the schema, or exclude the operation (exclude: { operationIds: [...] })',
        pointer,
      );
    }
    this.total += converted.size;
    if (this.total > MAX_DOCUMENT_NODES) {
      throw new DocumentProblem(
        `the schemas of the operations served so far expand to more than ${MAX_DOCUMENT_NODES} schemas in all`,
        'serve a part of the document (include: { tags: [...] }), or leave out output schemas (outputSchemas: false)',
        pointer,
      );
    }
    return converted.schema;
  }

  private walk(source: unknown, use: SchemaUse, depth: number, ancestors: Set<object>, pointer: string): Converted {
    if (source === true || source === false) return { schema: source, height: 0, size: 1, cut: false };
    if (typeof source !== 'object' || source === null || Array.isArray(source)) {
      throw new DocumentProblem('a schema there is not an object', 'give a schema object ({ "type": ... })', pointer);
    }
    const node = source as Record<string, unknown>;
    if (typeof node.$ref === 'string') {
      throw new DocumentProblem(
        `the $ref '${node.$ref}' points outside the document, and only references inside it are resolved`,
        'bundle the document into one file first (e.g. `npx @redocly/cli bundle openapi.yaml -o bundled.json`), so that every $ref is internal',
        pointer,
      );
    }
    if (ancestors.has(node) || depth > this.maxDepth) return { schema: {}, height: 0, size: 1, cut: true };
    const known = this.memo[use].get(node);
    if (known && depth + known.height <= this.maxDepth) return known;

    ancestors.add(node);
    const out: JsonSchema = {};
    let height = 0;
    let size = 1;
    let cut = false;
    const child = (value: unknown, at: string): JsonSchema | boolean => {
      const converted = this.walk(value, use, depth + 1, ancestors, at);
      height = Math.max(height, converted.height + 1);
      size += converted.size;
      cut ||= converted.cut;
      return converted.schema;
    };
    const left = new Set<string>(); // properties left out for this use
    for (const [key, value] of Object.entries(node)) {
      const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (ONE.has(key)) {
        if (key === 'items' && Array.isArray(value)) out.prefixItems = value.map((item, i) => child(item, `${at}/${i}`));
        else if (typeof value === 'object' || typeof value === 'boolean') out[key] = child(value, at);
      } else if (LIST.has(key)) {
        if (Array.isArray(value) && value.length > 0) out[key] = value.map((item, i) => child(item, `${at}/${i}`));
      } else if (MAP.has(key)) {
        if (typeof value !== 'object' || value === null || Array.isArray(value)) continue;
        const entries: [string, JsonSchema | boolean][] = [];
        for (const [name, schema] of Object.entries(value as Record<string, unknown>)) {
          if (key === 'properties' && leftOut(schema, use)) {
            left.add(name);
            continue;
          }
          if (key === 'patternProperties' && !compiles(name)) continue;
          entries.push([name, child(schema, `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`)]);
        }
        out[key] = Object.fromEntries(entries);
      } else {
        copyKeyword(out, key, value, node);
      }
    }
    ancestors.delete(node);
    if (Array.isArray(out.required) && left.size > 0) {
      out.required = (out.required as string[]).filter((name) => !left.has(name));
      if ((out.required as string[]).length === 0) delete out.required;
    }
    const schema = node.nullable === true ? nullable(out) : out;
    const converted = { schema, height, size, cut };
    if (!cut) this.memo[use].set(node, converted);
    return converted;
  }
}

/** Copies one non-schema keyword when its value is well formed for 2020-12 (the rest is left out). */
function copyKeyword(out: JsonSchema, key: string, value: unknown, node: Record<string, unknown>): void {
  if (key === 'type') {
    if (typeof value === 'string' && TYPES.has(value)) out.type = value;
    else if (Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === 'string' && TYPES.has(t))) out.type = [...new Set(value)];
  } else if (key === 'enum') {
    if (Array.isArray(value) && value.length > 0) out.enum = value;
  } else if (key === 'required') {
    if (Array.isArray(value) && value.every((n) => typeof n === 'string') && value.length > 0) out.required = [...new Set(value as string[])];
  } else if (key === 'format') {
    if (typeof value === 'string' && FORMATS.has(value)) out.format = value;
  } else if (key === 'pattern') {
    if (typeof value === 'string' && compiles(value)) out.pattern = value;
  } else if (key === 'exclusiveMinimum' || key === 'exclusiveMaximum') {
    // OpenAPI 3.0: a boolean beside minimum/maximum; 2020-12: the bound itself.
    const bound = key === 'exclusiveMinimum' ? node.minimum : node.maximum;
    if (typeof value === 'number') out[key] = value;
    else if (value === true && typeof bound === 'number') {
      out[key] = bound;
      delete out[key === 'exclusiveMinimum' ? 'minimum' : 'maximum'];
    }
  } else if (NUMBERS.has(key)) {
    const exclusive = key === 'minimum' ? node.exclusiveMinimum : node.exclusiveMaximum;
    if (typeof value === 'number' && !(exclusive === true && (key === 'minimum' ? 'exclusiveMinimum' : 'exclusiveMaximum') in out)) out[key] = value;
  } else if (key === 'multipleOf') {
    if (typeof value === 'number' && value > 0) out.multipleOf = value;
  } else if (COUNTS.has(key)) {
    if (Number.isSafeInteger(value) && (value as number) >= 0) out[key] = value;
  } else if (STRINGS.has(key)) {
    if (typeof value === 'string') out[key] = value;
  } else if (FLAGS.has(key)) {
    if (typeof value === 'boolean') out[key] = value;
  } else if (VALUES.has(key)) {
    out[key] = value;
  } else if (key === 'dependentRequired') {
    if (typeof value === 'object' && value !== null && Object.values(value).every((v) => Array.isArray(v) && v.every((n) => typeof n === 'string'))) out.dependentRequired = value;
  }
}

/** OpenAPI 3.0's `nullable: true` as 2020-12 says it: `null` among the types (and the allowed values). */
function nullable(schema: JsonSchema): JsonSchema {
  if (typeof schema.type === 'string' || Array.isArray(schema.type)) {
    const types = typeof schema.type === 'string' ? [schema.type] : (schema.type as string[]);
    const out: JsonSchema = { ...schema, type: types.includes('null') ? types : [...types, 'null'] };
    if (Array.isArray(schema.enum) && !schema.enum.includes(null)) out.enum = [...schema.enum, null];
    return out;
  }
  return Object.keys(schema).length === 0 ? schema : { anyOf: [schema, { type: 'null' }] };
}

function leftOut(schema: unknown, use: SchemaUse): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  const flags = schema as { readOnly?: unknown; writeOnly?: unknown };
  return use === 'input' ? flags.readOnly === true : flags.writeOnly === true;
}

/** ajv compiles `pattern` with the `u` flag: a pattern that cannot be one is left out rather than failing. */
function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern, 'u');
    return true;
  } catch {
    return false;
  }
}
