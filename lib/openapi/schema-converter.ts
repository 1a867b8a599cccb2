import { SUBSCHEMA_KEYWORDS, type JsonSchema } from '../interfaces';
import { patternProblem } from '../schema';
import { refLoop, refLoopProblem } from './ref-loops';
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
/**
 * The same for the text they hold (names, descriptions, patterns, values), in characters: a few strings written
 * out many times (YAML aliases) would otherwise fill the memory with few nodes.
 */
export const MAX_SCHEMA_TEXT = 8 * 1024 * 1024;
export const MAX_DOCUMENT_TEXT = 64 * 1024 * 1024;
/** How many nodes are expanded between two looks at the clock (`documentTimeout`). */
const CLOCK_EVERY = 1024;

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
  /** Nodes (schemas and the values they hold) in its expanded form. */
  readonly size: number;
  /** Characters of text in its expanded form. */
  readonly text: number;
  /** Something inside was cut for lying too deep: it depends on the depth it was met at, so it is memoized per depth. */
  readonly deep: boolean;
  /** Something inside was cut for recurring: it depends on the schemas around it, so it is not memoized. */
  readonly recurring: boolean;
}

/** What the converter tells of a schema it serves changed: a pattern left out (unsafe, or not a Unicode RegExp). */
export interface DroppedPart {
  readonly pointer: string;
  readonly what: string;
}

export interface ConverterLimits {
  readonly maxDepth: number;
  /** When the whole load must be done (`documentTimeout` after it began), in ms since the epoch. */
  readonly deadline: number;
  readonly documentTimeout: number;
  /** Told of each part left out of a served schema. */
  readonly dropped?: (part: DroppedPart) => void;
}

/** A JSON value's expanded size, counted once per shared object (YAML aliases, shared objects). */
interface ValueSize {
  readonly size: number;
  readonly text: number;
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
  /** Cut branches (too deep, nothing recurring), per the depth they were met at: expanded once, never again. */
  private readonly deepMemo: Record<SchemaUse, WeakMap<object, Map<number, Converted>>> = { input: new WeakMap(), output: new WeakMap() };
  private readonly values = new WeakMap<object, ValueSize>();
  /** Nodes and text given out so far (whole schemas), expanded. */
  private total = 0;
  private totalText = 0;
  /** Nodes and text of the schema being converted, counted while it is expanded. */
  private size = 0;
  private text = 0;
  private steps = 0;
  private pointer = '#';

  constructor(private readonly limits: ConverterLimits) {}

  /** The 2020-12 form of `source`, found at `pointer` (for messages). */
  convert(source: unknown, use: SchemaUse, pointer: string): JsonSchema {
    this.size = 0;
    this.text = 0;
    this.pointer = pointer;
    const converted = this.walk(source, use, 0, new Set(), pointer);
    this.total += converted.size;
    this.totalText += converted.text;
    if (typeof converted.schema === 'boolean') return converted.schema ? {} : { not: {} };
    return converted.schema;
  }

  /** Counts what `text` adds to the document (a description, a title) against {@link MAX_DOCUMENT_TEXT}. */
  countText(text: string | undefined, pointer: string): void {
    if (text === undefined) return;
    this.totalText += text.length;
    if (this.totalText > MAX_DOCUMENT_TEXT) throw this.documentTooBig(pointer);
  }

  /** Adds to the schema being expanded, failing as soon as a bound is passed (never after the expansion). */
  private count(size: number, text: number): void {
    this.size += size;
    this.text += text;
    if (this.size > MAX_SCHEMA_NODES || this.text > MAX_SCHEMA_TEXT) {
      throw new DocumentProblem(
        this.size > MAX_SCHEMA_NODES
          ? `the schema expands to more than ${MAX_SCHEMA_NODES} nodes (schemas and values) once every shared part is written out where it is used`
          : `the schema expands to more than ${MAX_SCHEMA_TEXT} characters of text once every shared part is written out where it is used`,
        'simplify the schema, or exclude the operation (exclude: { operationIds: [...] })',
        this.pointer,
      );
    }
    if (this.total + this.size > MAX_DOCUMENT_NODES || this.totalText + this.text > MAX_DOCUMENT_TEXT) throw this.documentTooBig(this.pointer);
    if ((this.steps += 1) % CLOCK_EVERY === 0 && Date.now() > this.limits.deadline) {
      throw new DocumentProblem(
        `reading and converting it took longer than documentTimeout (${this.limits.documentTimeout} ms)`,
        'raise documentTimeout, or serve a part of the document (include: { tags: [...] })',
        this.pointer,
      );
    }
  }

  private documentTooBig(pointer: string): DocumentProblem {
    return new DocumentProblem(
      `the schemas of the operations served so far expand to more than ${MAX_DOCUMENT_NODES} nodes or ${MAX_DOCUMENT_TEXT} characters in all`,
      'serve a part of the document (include: { tags: [...] }), or leave out output schemas (outputSchemas: false)',
      pointer,
    );
  }

  private walk(source: unknown, use: SchemaUse, depth: number, ancestors: Set<object>, pointer: string): Converted {
    if (source === true || source === false) {
      this.count(1, 0);
      return { schema: source, height: 0, size: 1, text: 0, deep: false, recurring: false };
    }
    if (typeof source !== 'object' || source === null || Array.isArray(source)) {
      throw new DocumentProblem('a schema there is not an object', 'give a schema object ({ "type": ... })', pointer);
    }
    const node = source as Record<string, unknown>;
    const loop = refLoop(node);
    if (loop) throw refLoopProblem(loop, pointer);
    if (typeof node.$ref === 'string') {
      throw new DocumentProblem(
        `the $ref '${node.$ref}' points outside the document, and only references inside it are resolved`,
        'bundle the document into one file first (e.g. `npx @redocly/cli bundle openapi.yaml -o bundled.json`), so that every $ref is internal',
        pointer,
      );
    }
    if (ancestors.has(node) || depth > this.limits.maxDepth) {
      this.count(1, 0);
      return { schema: {}, height: 0, size: 1, text: 0, deep: !ancestors.has(node), recurring: ancestors.has(node) };
    }
    const known = this.memo[use].get(node);
    if (known && depth + known.height <= this.limits.maxDepth) {
      this.count(known.size, known.text);
      return known;
    }
    const cut = this.deepMemo[use].get(node)?.get(depth);
    if (cut) {
      this.count(cut.size, cut.text);
      return cut;
    }

    const before = { size: this.size, text: this.text };
    this.count(1, 0);
    ancestors.add(node);
    const out: JsonSchema = {};
    let height = 0;
    let deep = false;
    let recurring = false;
    const child = (value: unknown, at: string): JsonSchema | boolean => {
      const converted = this.walk(value, use, depth + 1, ancestors, at);
      height = Math.max(height, converted.height + 1);
      deep ||= converted.deep;
      recurring ||= converted.recurring;
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
          const there = `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`;
          if (key === 'properties' && leftOut(schema, use)) {
            left.add(name);
            continue;
          }
          if (key === 'patternProperties' && !this.safe(name, there)) continue;
          this.count(0, name.length);
          entries.push([name, child(schema, there)]);
        }
        out[key] = Object.fromEntries(entries);
      } else if (key === 'pattern') {
        if (typeof value === 'string' && this.safe(value, at)) {
          this.count(0, value.length);
          out.pattern = value;
        }
      } else if (copyKeyword(out, key, value, node)) {
        // A scalar is part of its schema's node; a list or an object counts with every value it holds, written out.
        const { size, text } = this.valueSize(value, at);
        this.count(typeof value === 'object' && value !== null ? size : 0, text);
      }
    }
    ancestors.delete(node);
    if (Array.isArray(out.required) && left.size > 0) {
      out.required = (out.required as string[]).filter((name) => !left.has(name));
      if ((out.required as string[]).length === 0) delete out.required;
    }
    const schema = node.nullable === true ? nullable(out) : out;
    const converted = { schema, height, size: this.size - before.size, text: this.text - before.text, deep, recurring };
    if (!deep && !recurring) this.memo[use].set(node, converted);
    else if (!recurring) {
      let byDepth = this.deepMemo[use].get(node);
      if (!byDepth) this.deepMemo[use].set(node, (byDepth = new Map()));
      byDepth.set(depth, converted);
    }
    return converted;
  }

  /** Whether a pattern of the document may be served (told to `dropped` when not): {@link patternProblem}. */
  private safe(pattern: string, pointer: string): boolean {
    const why = patternProblem(pattern);
    if (why) this.limits.dropped?.({ pointer, what: `the pattern ${JSON.stringify(pattern.length > 80 ? `${pattern.slice(0, 80)}…` : pattern)} (${why})` });
    return why === undefined;
  }

  /**
   * A value's size written out (nodes, characters), each shared object counted once and remembered: a YAML
   * alias bomb is measured in the time of its distinct objects, not of its expansion. A value that holds
   * itself cannot be written out at all.
   */
  private valueSize(value: unknown, pointer: string, open = new Set<object>()): ValueSize {
    if (typeof value === 'string') return { size: 1, text: value.length };
    if (typeof value !== 'object' || value === null) return { size: 1, text: 0 };
    const known = this.values.get(value);
    if (known) return known;
    if (open.has(value)) throw new DocumentProblem('a value there holds itself (a cycle)', 'give a value that can be written as JSON', pointer);
    open.add(value);
    let size = 1;
    let text = 0;
    for (const [key, item] of Object.entries(value)) {
      const inner = this.valueSize(item, pointer, open);
      size += inner.size;
      text += inner.text + (Array.isArray(value) ? 0 : key.length);
    }
    open.delete(value);
    const measured = { size, text };
    this.values.set(value, measured);
    return measured;
  }
}

/**
 * Copies one non-schema keyword when its value is well formed for 2020-12 (the rest is left out): true when it
 * was copied (its value then counts against the bounds).
 */
function copyKeyword(out: JsonSchema, key: string, value: unknown, node: Record<string, unknown>): boolean {
  const before = out[key];
  if (key === 'type') {
    if (typeof value === 'string' && TYPES.has(value)) out.type = value;
    else if (Array.isArray(value) && value.length > 0 && value.every((t) => typeof t === 'string' && TYPES.has(t))) out.type = [...new Set(value)];
  } else if (key === 'enum') {
    if (Array.isArray(value) && value.length > 0) out.enum = value;
  } else if (key === 'required') {
    if (Array.isArray(value) && value.every((n) => typeof n === 'string') && value.length > 0) out.required = [...new Set(value as string[])];
  } else if (key === 'format') {
    if (typeof value === 'string' && FORMATS.has(value)) out.format = value;
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
  return out[key] !== before;
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
