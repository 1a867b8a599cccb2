import { DocumentProblem } from './openapi.messages';

/** Where a loop of `$ref`s was found: the objects of the loop carry it, in place of their `$ref`. */
const REF_LOOP = Symbol('mcp-reflect:openapi-ref-loop');

/** How many objects are visited between two looks at the clock. */
const CLOCK_EVERY = 4096;

/**
 * Finds the `$ref`s of a parsed document (not yet dereferenced) that only point at one another
 * (`A: { $ref: B }`, `B: { $ref: A }`): such a loop names no schema, and a resolver can only leave it in place.
 * Each object of a loop loses its `$ref` and carries the loop instead, so that whatever uses it (an operation's
 * schema, parameter, body, answer) fails naming the loop (see {@link refLoop}); the rest of the document is
 * untouched. Every object is visited once (shared objects, YAML aliases included), and `overdue()` is asked
 * as it goes (the load's deadline). `document` is ours to change (a copy, or parsed here).
 */
export function markRefLoops(document: object, overdue: () => void): void {
  const resolved = new Map<string, 'ok' | 'loop'>();
  const seen = new Set<object>();
  const stack: object[] = [document];
  let steps = 0;
  while (stack.length > 0) {
    const value = stack.pop()!;
    if (++steps % CLOCK_EVERY === 0) overdue();
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) follow(document, ref, resolved);
    for (const child of Object.values(value)) {
      if (typeof child === 'object' && child !== null && !seen.has(child)) {
        seen.add(child);
        stack.push(child);
      }
    }
  }
}

/** The loop an object of the document stands in, as the `$ref`s that make it (`#/a` → `#/b` → `#/a`), or undefined. */
export function refLoop(value: object): readonly string[] | undefined {
  return (value as { [REF_LOOP]?: readonly string[] })[REF_LOOP];
}

/** The problem of what stands in a loop of `$ref`s, at `pointer`: the loop, and what to do. */
export function refLoopProblem(loop: readonly string[], pointer: string): DocumentProblem {
  const what = loop.length === 2 ? `a $ref that points at itself (${loop[0]})` : `a loop of $refs that point only at one another (${loop.join(' → ')})`;
  return new DocumentProblem(
    `the $ref there leads to ${what}, which names nothing`,
    'make one of them the schema (or object) it stands for, or exclude the operation (exclude: { operationIds: [...] })',
    pointer,
  );
}

/** Follows a chain of `$ref`s from `ref` until it reaches something else (fine) or comes back (a loop, marked). */
function follow(document: object, ref: string, resolved: Map<string, 'ok' | 'loop'>): void {
  const chain: string[] = [];
  const targets: object[] = [];
  const index = new Map<string, number>();
  let current = ref;
  for (;;) {
    const known = resolved.get(current);
    if (known) break;
    const at = index.get(current);
    if (at !== undefined) {
      const loop = [...chain.slice(at), current];
      for (const target of targets.slice(at)) {
        delete (target as { $ref?: unknown }).$ref;
        (target as { [REF_LOOP]?: readonly string[] })[REF_LOOP] = loop;
      }
      for (const name of chain.slice(at)) resolved.set(name, 'loop');
      break;
    }
    const target = resolve(document, current);
    const next = target && (target as { $ref?: unknown }).$ref;
    if (!target || typeof next !== 'string' || !next.startsWith('#')) break;
    index.set(current, chain.length);
    chain.push(current);
    targets.push(target);
    current = next;
  }
  for (const name of chain) if (!resolved.has(name)) resolved.set(name, 'ok');
}

/** The object a local JSON pointer (`#/components/schemas/Pet`) names, read as it is written (no `$ref` on the way). */
function resolve(document: object, ref: string): object | undefined {
  let value: unknown = document;
  const path = ref.slice(1);
  if (path === '') return document;
  if (!path.startsWith('/')) return undefined;
  for (const raw of path.slice(1).split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      return undefined;
    }
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return typeof value === 'object' && value !== null ? value : undefined;
}
