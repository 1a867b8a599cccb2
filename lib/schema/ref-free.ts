import { SUBSCHEMA_KEYWORDS, type JsonSchema } from '../interfaces';

/** How many times a recursive `$ref` is expanded inside itself before it becomes `{}` (docs/composition.md). */
export const DEFAULT_RECURSION_DEPTH = 3;

/** Most schema nodes one inlined schema may have: a web of references could otherwise grow without end. */
const MAX_NODES = 20_000;

/** The schema without references, or why it cannot be given one. */
export type Inlined = { readonly schema: JsonSchema } | { readonly problem: string; readonly ref?: string };

// Keywords whose value is a schema, an array of schemas, or a map of schemas (JSON Schema 2020-12, and the
// draft-07 forms a remote server may still send). Everything else (enum, const, default, examples …) is data.
// 2020-12's subschema keywords, and draft-07's that raw schemas may still use (`items` as a list, `additionalItems`, `dependencies`).
const ONE = new Set<string>([...SUBSCHEMA_KEYWORDS.one, 'additionalItems']);
const MANY = new Set<string>([...SUBSCHEMA_KEYWORDS.list, 'items']);
const MAP = new Set<string>([...SUBSCHEMA_KEYWORDS.map, 'dependencies']);
const DEFS = new Set(['$defs', 'definitions']);
/** Keywords that annotate and may sit beside a `$ref` without changing what it accepts. */
const ANNOTATIONS = new Set(['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly', '$comment']);

/**
 * Replaces every `$ref` of `schema` by what it points to inside `schema` (`#`, `#/$defs/X`, any JSON pointer),
 * or a plain-name `$anchor`, so the result has no `$ref` and no `$defs`. A reference already being expanded
 * `recursionDepth` times on the way down becomes `{}`. A `$ref` to anything else (another document) or a
 * `$dynamicRef` cannot be inlined: then `problem` says why. A schema without references is returned as it is.
 */
export function inlineRefs(schema: JsonSchema, recursionDepth: number = DEFAULT_RECURSION_DEPTH): Inlined {
  if (!hasRef(schema)) return { schema };
  let nodes = 0;
  const fail = (problem: string, ref?: string): never => {
    throw new InlineFailure(problem, ref);
  };
  const walk = (node: unknown, stack: readonly string[]): unknown => {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return node;
    if (++nodes > MAX_NODES) fail(`inlining its references makes more than ${MAX_NODES} schema nodes`);
    const source = node as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(source)) {
      // Anchors only serve references, which are all gone (and one inlined twice would be declared twice).
      if (key === '$ref' || key === '$anchor' || key === '$dynamicAnchor' || DEFS.has(key)) continue;
      if (key === '$dynamicRef') fail(`$dynamicRef '${String(value)}' cannot be inlined`, String(value));
      if (MANY.has(key) && Array.isArray(value)) out[key] = value.map((v) => walk(v, stack));
      else if (ONE.has(key)) out[key] = walk(value, stack);
      else if (MAP.has(key) && typeof value === 'object' && value !== null && !Array.isArray(value)) {
        out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, Array.isArray(v) ? v : walk(v, stack)]));
      } else out[key] = value;
    }
    if (typeof source.$ref !== 'string') return out;
    const ref = source.$ref;
    const depth = stack.filter((r) => r === ref).length;
    const target = depth > recursionDepth ? {} : walk(resolve(schema, ref, fail), [...stack, ref]);
    return merged(out, target);
  };
  try {
    return { schema: walk(schema, rootDefinition(schema)) as JsonSchema };
  } catch (error) {
    if (error instanceof InlineFailure) return { problem: error.message, ...(error.ref !== undefined ? { ref: error.ref } : {}) };
    throw error;
  }
}

/**
 * A recursive root DTO is its own definition laid out at the root (lib/schema/input-schema.ts): the root is then
 * already one expansion of that `$ref`, so that recursion counts from it.
 */
function rootDefinition(schema: JsonSchema): string[] {
  const { $defs, ...root } = schema;
  if (typeof $defs !== 'object' || $defs === null) return [];
  const json = JSON.stringify(root);
  const name = Object.keys($defs).find((key) => JSON.stringify(($defs as Record<string, unknown>)[key]) === json);
  return name === undefined ? [] : [`#/$defs/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`];
}

/** True when `schema` has a `$ref` (or `$dynamicRef`) anywhere a schema may be. */
export function hasRef(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null) return false;
  if (Array.isArray(schema)) return schema.some(hasRef);
  const node = schema as Record<string, unknown>;
  for (const [key, value] of Object.entries(node)) {
    if (key === '$ref' || key === '$dynamicRef') return true;
    if ((ONE.has(key) || MANY.has(key) || DEFS.has(key)) && hasRef(value)) return true;
    if (MAP.has(key) && typeof value === 'object' && value !== null && Object.values(value).some((v) => !Array.isArray(v) && hasRef(v))) return true;
  }
  return false;
}

class InlineFailure extends Error {
  constructor(
    message: string,
    readonly ref?: string,
  ) {
    super(message);
  }
}

/** The node `ref` points to in `root`: `#` itself, or a JSON pointer (RFC 6901, percent-decoded as a URI fragment). */
function resolve(root: JsonSchema, ref: string, fail: (problem: string, ref?: string) => never): unknown {
  if (!ref.startsWith('#')) return fail(`$ref '${ref}' points outside the schema`, ref);
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return findAnchor(root, ref.slice(1)) ?? fail(`$ref '${ref}' names no $anchor of the schema`, ref);
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return fail(`$ref '${ref}' is not a valid JSON pointer`, ref);
    }
    const next = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[part] : undefined;
    if (next === undefined || !Object.prototype.hasOwnProperty.call(node, part)) return fail(`$ref '${ref}' points to nothing in the schema`, ref);
    node = next;
  }
  if (typeof node !== 'object' && typeof node !== 'boolean') return fail(`$ref '${ref}' points to a value that is not a schema`, ref);
  return node;
}

/** The subschema with `$anchor: name`, wherever a schema may be. */
function findAnchor(node: unknown, name: string): object | undefined {
  if (typeof node !== 'object' || node === null) return undefined;
  if (Array.isArray(node)) return node.map((n) => findAnchor(n, name)).find((found) => found !== undefined);
  const schema = node as Record<string, unknown>;
  if (schema.$anchor === name) return schema;
  for (const [key, value] of Object.entries(schema)) {
    const found = ONE.has(key) || MANY.has(key) ? findAnchor(value, name) : DEFS.has(key) || MAP.has(key) ? findAnchor(Object.values((value ?? {}) as object), name) : undefined;
    if (found) return found;
  }
  return undefined;
}

/**
 * A `$ref` with sibling keywords is the conjunction of both (2020-12): annotations beside it are laid over
 * the target; any other sibling keeps the exact meaning through `allOf`.
 */
function merged(siblings: Record<string, unknown>, target: unknown): unknown {
  const keys = Object.keys(siblings);
  if (keys.length === 0) return target;
  if (target === true || (typeof target === 'object' && target !== null && Object.keys(target).length === 0)) return siblings;
  if (typeof target === 'object' && target !== null && keys.every((k) => ANNOTATIONS.has(k))) return { ...target, ...siblings };
  const allOf = Array.isArray(siblings.allOf) ? siblings.allOf : [];
  return { ...siblings, allOf: [target, ...allOf] };
}
