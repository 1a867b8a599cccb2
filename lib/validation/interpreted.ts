import type { JsonSchema } from '../interfaces';
import type { AjvIssue, ValidateFunction } from './ajv-factory';

type Engine = typeof import('@cfworker/json-schema');
type Draft = '7' | '2020-12';
interface Reported {
  readonly instanceLocation: string;
  readonly keyword: string;
  readonly keywordLocation: string;
  readonly error: string;
}

/**
 * @cfworker/json-schema loads when the first schema is interpreted: where code generation is allowed, never. It is
 * a dependency of its own rather than the SDK's `validators/cf-worker` (built on the same engine): that one answers
 * with one joined message, without the keyword locations that issue-format needs to word issues as ajv's, and only
 * the SDK adapter, transports and proxy client may import the SDK (spec/architecture.spec.ts).
 */
let engine: Engine | undefined;
const interpreter = () => (engine ??= require('@cfworker/json-schema') as Engine);

/**
 * A validator that interprets `schema` instead of compiling it to code: for runtimes that refuse code
 * generation (Cloudflare Workers), and schemas known only at run time (a proxied server's), which no
 * validator compiled ahead of time can cover. It behaves as ajv's validator of the same schema does: a
 * boolean, `errors` in ajv's shape (so that issue-format words them alike), and with `removeAdditional` the
 * unknown properties dropped where the schema says `additionalProperties: false`. Throws, as ajv's compile
 * does, on a reference it cannot resolve or a pattern that is no regular expression.
 */
export function interpretedValidator(schema: JsonSchema, dialect: '2020' | '07', allErrors: boolean, removeAdditional: boolean): ValidateFunction {
  const { Validator } = interpreter();
  // The engine writes its bookkeeping onto the schema's objects: it gets its own copy.
  const own = JSON.parse(JSON.stringify(schema)) as JsonSchema;
  const draft: Draft = dialect === '07' ? '7' : '2020-12';
  const validator = new Validator(own as never, draft, !allErrors);
  checkResolvable(own, (validator as unknown as { lookup: Record<string, unknown> }).lookup);
  const validate = ((data: unknown) => {
    if (removeAdditional) dropAdditional(own, own, data, new Map());
    let result: { valid: boolean; errors: Reported[] };
    try {
      result = validator.validate(data) as typeof result;
    } catch (error) {
      validate.errors = [{ keyword: 'schema', instancePath: '', params: {}, message: `could not be checked against the schema (${error instanceof Error ? error.message : String(error)})` }];
      return false;
    }
    validate.errors = result.valid ? null : toIssues(result.errors, own, data);
    return result.valid;
  }) as ValidateFunction;
  validate.errors = null;
  return validate;
}

/** Every `$ref` resolves and every pattern compiles, or the schema is refused now (ajv's compile refuses both). */
function checkResolvable(root: JsonSchema, lookup: Record<string, unknown>): void {
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    if (Array.isArray(node)) return node.forEach(visit);
    const schema = node as Record<string, unknown> & { __absolute_ref__?: string };
    if (typeof schema.$ref === 'string' && lookup[schema.__absolute_ref__ ?? schema.$ref] === undefined) throw new Error(`can't resolve reference ${schema.$ref}`);
    if (typeof schema.pattern === 'string') new RegExp(schema.pattern, 'u');
    if (typeof schema.patternProperties === 'object' && schema.patternProperties) for (const pattern of Object.keys(schema.patternProperties)) new RegExp(pattern, 'u');
    for (const [key, value] of Object.entries(schema)) if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') visit(value);
  };
  visit(root);
}

/**
 * The engine's errors in ajv's shape. Its errors that only say a part failed (`properties`, `items`, `$ref`,
 * `allOf` …: the part's own errors follow) are left out, as ajv reports only the failed constraints; the
 * constraint's value (`limit`, `allowedValues` …) is read from the schema node the error points at.
 */
function toIssues(errors: readonly Reported[], root: JsonSchema, data: unknown): AjvIssue[] {
  const issues: AjvIssue[] = [];
  let consumed: string | undefined; // the `false` schema error that an additionalProperties issue already says
  for (const error of errors) {
    const instancePath = pointer(error.instanceLocation);
    if (error.keyword === 'false') {
      if (consumed !== undefined && instancePath === consumed) {
        consumed = undefined;
        continue;
      }
      issues.push({ keyword: 'false schema', instancePath, params: {}, message: 'boolean schema is false' });
      continue;
    }
    const node = schemaAt(root, error.keywordLocation, error.keyword);
    const value = node?.[error.keyword];
    const issue = (params: Record<string, unknown>, message?: string) => issues.push({ keyword: error.keyword, instancePath, params, ...(message !== undefined ? { message } : {}) });
    switch (error.keyword) {
      case 'type':
        issue({ type: Array.isArray(value) ? value.join(',') : value });
        break;
      case 'required':
        issue({ missingProperty: quoted(error.error, /required property "(.*)"\.$/) });
        break;
      case 'additionalProperties':
      case 'unevaluatedProperties': {
        if (value !== false) break; // a schema for them: its own errors follow
        const key = quoted(error.error, /^Property "(.*)" does not match/);
        consumed = `${instancePath}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
        if (error.keyword === 'additionalProperties') issue({ additionalProperty: key });
        else issue({ unevaluatedProperty: key }, 'must NOT have unevaluated properties');
        break;
      }
      case 'minLength':
      case 'maxLength':
      case 'minimum':
      case 'maximum':
      case 'exclusiveMinimum':
      case 'exclusiveMaximum':
      case 'minItems':
      case 'maxItems':
        issue({ limit: value });
        break;
      case 'minProperties':
      case 'maxProperties':
        issue({ limit: value }, `must NOT have ${error.keyword === 'maxProperties' ? 'more' : 'fewer'} than ${value} properties`);
        break;
      case 'multipleOf':
        issue({ multipleOf: value }, `must be multiple of ${value}`);
        break;
      case 'enum':
        issue({ allowedValues: value });
        break;
      case 'const':
        issue({ allowedValue: value });
        break;
      case 'format':
        issue({ format: value });
        break;
      case 'pattern':
        issue({ pattern: value });
        break;
      case 'uniqueItems': {
        // As ajv: with scalar item types, items of another type are not compared (their type issue says it).
        const pair = duplicatePair(valueAt(data, instancePath), node?.items);
        if (pair) issue(pair);
        break;
      }
      case 'not':
        issue({}, 'must NOT be valid');
        break;
      case 'if':
        issue({ failingKeyword: error.error.includes('"then"') ? 'then' : 'else' }, `must match "${error.error.includes('"then"') ? 'then' : 'else'}" schema`);
        break;
      case 'anyOf':
      case 'oneOf':
        issue({});
        break;
      case 'contains':
      case 'minContains':
      case 'maxContains': {
        const min = typeof node?.minContains === 'number' ? node.minContains : 1;
        const max = typeof node?.maxContains === 'number' ? node.maxContains : undefined;
        issue({ minContains: min, maxContains: max }, max === undefined ? `must contain at least ${min} valid item(s)` : `must contain at least ${min} and no more than ${max} valid item(s)`);
        break;
      }
      case 'dependentRequired':
      case 'dependencies': {
        const match = /^Instance has "(.*)" but does not have "(.*)"\.$/.exec(error.error);
        if (!match) break; // the subschema form: its own errors follow
        const deps = ((node?.[error.keyword] as Record<string, string[]> | undefined)?.[match[1]] ?? [match[2]]).join(', ');
        issue({ property: match[1], missingProperty: match[2] }, `must have ${deps.includes(', ') ? 'properties' : 'property'} ${deps} when property ${match[1]} is present`);
        break;
      }
      case 'propertyNames':
        issue({ propertyName: quoted(error.error, /^Property name "(.*)" does not match/) }, 'property name must be valid');
        break;
      case 'additionalItems':
        if (value === false) issue({ limit: Array.isArray(node?.items) ? node.items.length : 0 }, `must NOT have more than ${Array.isArray(node?.items) ? node.items.length : 0} items`);
        break;
      default:
        break; // properties, patternProperties, items, prefixItems, $ref, allOf, dependentSchemas …: their parts' errors follow
    }
  }
  return issues;
}

/** `#/items/0/a%20b` (the engine's location, URI-encoded) → `/items/0/a b` (ajv's instancePath). */
function pointer(location: string): string {
  const path = location.replace(/^#/, '');
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function quoted(text: string, pattern: RegExp): string {
  return pattern.exec(text)?.[1] ?? '';
}

/** The schema node holding `keyword`, from the engine's keyword location (`#/properties/a/$ref/maximum`). */
function schemaAt(root: JsonSchema, location: string, keyword: string): Record<string, any> | undefined {
  const segments = pointer(location).split('/').slice(1).map(unescape);
  if (segments[segments.length - 1] === keyword) segments.pop();
  let node: any = root;
  for (const segment of segments) {
    if (node === null || typeof node !== 'object') return undefined;
    node = segment === '$ref' && typeof node.$ref === 'string' ? resolve(root, node.$ref) : node[segment];
  }
  return node !== null && typeof node === 'object' ? node : undefined;
}

/** A reference within the schema (`#`, `#/$defs/x`); other ones are not followed. */
function resolve(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith('#')) return undefined;
  let node: any = root;
  for (const segment of ref.slice(1).split('/').slice(1).map((s) => unescape(decodeURIComponent(s)))) node = node?.[segment];
  return node;
}

function unescape(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function valueAt(data: unknown, path: string): unknown {
  let value: any = data;
  for (const segment of path.split('/').slice(1).map(unescape)) value = value?.[segment];
  return value;
}

/**
 * The duplicate pair ajv names: from the end, the first item equal to a later one (items of scalar types,
 * compared by value), else the last item equal to an earlier one and the latest such earlier one.
 */
function duplicatePair(items: unknown, itemSchema: unknown): { i: number; j: number } | undefined {
  if (!Array.isArray(items)) return { i: 0, j: 0 };
  const declared = (itemSchema as { type?: unknown } | undefined)?.type;
  const types = Array.isArray(declared) ? declared : declared === undefined ? [] : [declared];
  if (types.length > 0 && !types.some((t) => t === 'object' || t === 'array')) {
    // ajv's loop for scalar item types: an item of another type is skipped, so its duplicates are none.
    const indices = new Map<unknown, number>();
    for (let i = items.length; i--; ) {
      const item = items[i];
      if (!types.some((type) => isOfType(item, type))) continue;
      if (indices.has(item)) return { i, j: indices.get(item)! };
      indices.set(item, i);
    }
    return undefined;
  }
  for (let i = items.length; i--; ) for (let j = i; j--; ) if (equal(items[i], items[j])) return { i, j };
  return { i: 0, j: 0 };
}

/** A JSON Schema scalar type test, as ajv's with `strictNumbers` (a number is finite). */
function isOfType(value: unknown, type: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'null':
      return value === null;
    default:
      return false;
  }
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => k in b && equal((a as any)[k], (b as any)[k]));
}

/**
 * What ajv's `removeAdditional: true` does: at each object the schema closes (`additionalProperties: false`), the
 * properties it neither lists nor matches by a pattern are deleted — along `properties`, `items`, `prefixItems`,
 * `allOf` and references. (Inside `anyOf` / `oneOf` ajv removes in the branches it tries; these are left as sent.)
 */
function dropAdditional(root: JsonSchema, node: unknown, value: unknown, seen: Map<object, Set<object>>): void {
  if (typeof node !== 'object' || node === null || typeof value !== 'object' || value === null) return;
  const schema = node as Record<string, any>;
  // A recursive reference met again on the same value: done there already.
  const met = seen.get(value) ?? new Set<object>();
  if (met.has(schema)) return;
  seen.set(value, met.add(schema));
  if (typeof schema.$ref === 'string') dropAdditional(root, resolve(root, schema.$ref), value, seen);
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) dropAdditional(root, part, value, seen);
  if (Array.isArray(value)) {
    const prefix = Array.isArray(schema.prefixItems) ? schema.prefixItems : Array.isArray(schema.items) ? schema.items : [];
    value.forEach((item, i) => dropAdditional(root, i < prefix.length ? prefix[i] : Array.isArray(schema.items) ? undefined : schema.items, item, seen));
    return;
  }
  const record = value as Record<string, unknown>;
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  if (schema.additionalProperties === false) {
    const patterns = Object.keys(schema.patternProperties ?? {}).map((p) => new RegExp(p, 'u'));
    for (const name of Object.keys(record)) if (!(name in properties) && !patterns.some((p) => p.test(name))) delete record[name];
  }
  for (const [name, child] of Object.entries(properties)) if (name in record) dropAdditional(root, child, record[name], seen);
}
