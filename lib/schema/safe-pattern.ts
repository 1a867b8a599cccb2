import { SUBSCHEMA_KEYWORDS, type JsonSchema } from '../interfaces';

/**
 * Whether a JSON Schema `pattern` from someone else (an OpenAPI document, a proxied server's tool) may be run by
 * the validator: the reason it may not, or undefined. JavaScript's RegExp backtracks, and a pattern such as
 * `^(a+)+$` takes exponential time on `aaaa…!`, blocking the process for every client. The rule, checked on the
 * pattern's syntax (nothing is run):
 * - it compiles as a Unicode RegExp (ajv compiles patterns with the `u` flag);
 * - no repeated part (`*`, `+`, `{n,m}`, `{n}` with n ≥ 2) holds a part that repeats a variable number of times
 *   (star height at most 1): `(a+)+`, `(a*)*`, `(\w+\s?)*`, `(\d{1,3}\.){3}` are refused, `(?:[A-Z]{4})*` is not;
 * - no repeated part holds alternatives that could start alike (`(a|ab)*`, `(\w|-)+`): alternatives inside
 *   a repetition must each start with a different literal character (`(?:-|_)+` is fine);
 * - no back-reference (`\1`, `\k<name>`);
 * - groups nest at most {@link MAX_GROUP_DEPTH} deep.
 * Adjacent repetitions that overlap (`\d+\d+$`, `\s*.*\s*$`) take polynomial time and are not detected: bound
 * the length of such strings with `maxLength`.
 */
export function patternProblem(pattern: string): string | undefined {
  try {
    new RegExp(pattern, 'u');
  } catch {
    return 'it does not compile as a Unicode regular expression';
  }
  let tree: PatternNode;
  try {
    tree = new PatternParser(pattern).parse();
  } catch (error) {
    if (error instanceof TooDeep) return `its groups nest more than ${MAX_GROUP_DEPTH} deep`;
    throw error;
  }
  return problemIn(tree, false);
}

/** Whether `pattern` passes {@link patternProblem}. */
export function isSafePattern(pattern: string): boolean {
  return patternProblem(pattern) === undefined;
}

/** A pattern left out of a schema by {@link withSafePatterns}: where (a JSON pointer into the schema), what, why. */
export interface DroppedPattern {
  readonly pointer: string;
  readonly pattern: string;
  readonly why: string;
}

/**
 * The schema without the patterns {@link patternProblem} refuses: an unsafe `pattern` is left out (the schema
 * accepts more, never less), and so is a `patternProperties` entry with an unsafe key. The schema is returned
 * as it is when nothing is dropped, else a copy of what changed (the input is never mutated). Subschemas are
 * followed through every JSON Schema keyword that holds them (and `$defs`/`definitions`); `maxDepth` bounds
 * the walk (a deeper schema throws a RangeError: refuse it).
 */
export function withSafePatterns(schema: JsonSchema, dropped: (pattern: DroppedPattern) => void, maxDepth = 128): JsonSchema {
  return safeCopy(schema, '#', 0, maxDepth, dropped) as JsonSchema;
}

export const MAX_GROUP_DEPTH = 64;

const MAPS = new Set<string>([...SUBSCHEMA_KEYWORDS.map, '$defs', 'definitions']);
const ONE = new Set<string>(SUBSCHEMA_KEYWORDS.one);
const LIST = new Set<string>(SUBSCHEMA_KEYWORDS.list);

function safeCopy(value: unknown, pointer: string, depth: number, maxDepth: number, dropped: (pattern: DroppedPattern) => void): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  if (depth > maxDepth) throw new RangeError(`the schema nests deeper than ${maxDepth} levels at ${pointer}`);
  const node = value as Record<string, unknown>;
  let out: Record<string, unknown> | undefined;
  const set = (key: string, next: unknown) => {
    if (next === node[key] && (out === undefined || key in out)) return;
    out ??= { ...node };
    if (next === undefined) delete out[key];
    else out[key] = next;
  };
  for (const [key, child] of Object.entries(node)) {
    const at = `${pointer}/${escape(key)}`;
    if (key === 'pattern' && typeof child === 'string') {
      const why = patternProblem(child);
      if (why) {
        dropped({ pointer: at, pattern: child, why });
        set(key, undefined);
      }
    } else if (ONE.has(key)) {
      set(key, key === 'items' && Array.isArray(child) ? list(child, at, depth, maxDepth, dropped) : safeCopy(child, at, depth + 1, maxDepth, dropped));
    } else if (LIST.has(key) && Array.isArray(child)) {
      set(key, list(child, at, depth, maxDepth, dropped));
    } else if (MAPS.has(key) && typeof child === 'object' && child !== null && !Array.isArray(child)) {
      let map: Record<string, unknown> | undefined;
      for (const [name, sub] of Object.entries(child as Record<string, unknown>)) {
        const why = key === 'patternProperties' ? patternProblem(name) : undefined;
        if (why) dropped({ pointer: `${at}/${escape(name)}`, pattern: name, why });
        const next = why ? undefined : safeCopy(sub, `${at}/${escape(name)}`, depth + 1, maxDepth, dropped);
        if (next === sub) continue;
        map ??= { ...(child as Record<string, unknown>) };
        if (next === undefined) delete map[name];
        else map[name] = next;
      }
      if (map) set(key, map);
    }
  }
  return out ?? node;
}

function list(items: unknown[], at: string, depth: number, maxDepth: number, dropped: (pattern: DroppedPattern) => void): unknown[] {
  const next = items.map((item, i) => safeCopy(item, `${at}/${i}`, depth + 1, maxDepth, dropped));
  return next.every((item, i) => item === items[i]) ? items : next;
}

function escape(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The syntax tree of a pattern, as much of it as the rule needs. */
type PatternNode =
  | { readonly kind: 'sequence'; readonly items: readonly PatternNode[] }
  | { readonly kind: 'alternation'; readonly options: readonly PatternNode[] }
  | { readonly kind: 'repeat'; readonly min: number; readonly max: number; readonly body: PatternNode }
  | { readonly kind: 'group'; readonly body: PatternNode }
  /** One character (`literal`: the character itself when it is a plain one), a class, an assertion or a back-reference. */
  | { readonly kind: 'atom'; readonly literal?: string; readonly backReference?: boolean; readonly source?: string };

class TooDeep extends Error {}

const CONTROL: Record<string, string> = { 0: '\0', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** Why the tree breaks the rule; `repeated`: inside a part that repeats. */
function problemIn(node: PatternNode, repeated: boolean): string | undefined {
  switch (node.kind) {
    case 'atom':
      return node.backReference ? 'it has a back-reference, which can take exponential time to match' : undefined;
    case 'group':
      return problemIn(node.body, repeated);
    case 'sequence':
      for (const item of node.items) {
        const problem = problemIn(item, repeated);
        if (problem) return problem;
      }
      return undefined;
    case 'alternation': {
      if (repeated && !disjoint(node.options)) return 'a repeated group holds alternatives that can start alike (as (a|ab)* does), which can take exponential time to match';
      for (const option of node.options) {
        const problem = problemIn(option, repeated);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'repeat': {
      const repeats = node.max >= 2;
      if (repeats && varies(node.body) && !delimited(node.body)) return 'a repeated group holds another repetition (as (a+)+ does), which can take exponential time to match';
      return problemIn(node.body, repeated || repeats);
    }
  }
}

/** Whether the node holds a part that repeats a variable number of times. */
function varies(node: PatternNode): boolean {
  switch (node.kind) {
    case 'atom':
      return false;
    case 'group':
      return varies(node.body);
    case 'sequence':
      return node.items.some(varies);
    case 'alternation':
      return node.options.some(varies);
    case 'repeat':
      return node.min !== node.max || varies(node.body);
  }
}

/**
 * A repeated body whose rounds begin (or end) with a character that none of its varying parts can match
 * (`(?:-[a-z]+)*`, `(?:\d+,)*`): where one round ends and the next begins is decided by that character alone,
 * so the rounds cannot be split in several ways.
 */
function delimited(body: PatternNode): boolean {
  const atoms: string[] = [];
  varyingAtoms(body, false, atoms);
  return [firstLiteral(body), lastLiteral(body)].some(
    (delimiter) => delimiter !== undefined && atoms.every((source) => !new RegExp(`^(?:${source})$`, 'u').test(delimiter)),
  );
}

/** The sources of the atoms inside the parts of `node` that repeat a variable number of times. */
function varyingAtoms(node: PatternNode, varying: boolean, out: string[]): void {
  switch (node.kind) {
    case 'atom':
      if (varying) out.push(node.source ?? '[^]');
      return;
    case 'group':
      return varyingAtoms(node.body, varying, out);
    case 'sequence':
      return node.items.forEach((item) => varyingAtoms(item, varying, out));
    case 'alternation':
      return node.options.forEach((option) => varyingAtoms(option, varying, out));
    case 'repeat':
      return varyingAtoms(node.body, varying || node.min !== node.max, out);
  }
}

function lastLiteral(node: PatternNode): string | undefined {
  switch (node.kind) {
    case 'atom':
      return node.literal;
    case 'group':
      return lastLiteral(node.body);
    case 'sequence':
      return node.items.length > 0 ? lastLiteral(node.items[node.items.length - 1]) : undefined;
    case 'repeat':
      return node.min >= 1 ? lastLiteral(node.body) : undefined;
    case 'alternation':
      return undefined;
  }
}

/** Alternatives that each start with a different literal character cannot match the same text. */
function disjoint(options: readonly PatternNode[]): boolean {
  const firsts = new Set<string>();
  for (const option of options) {
    const first = firstLiteral(option);
    if (first === undefined || firsts.has(first)) return false;
    firsts.add(first);
  }
  return true;
}

function firstLiteral(node: PatternNode): string | undefined {
  switch (node.kind) {
    case 'atom':
      return node.literal;
    case 'group':
      return firstLiteral(node.body);
    case 'sequence':
      return node.items.length > 0 ? firstLiteral(node.items[0]) : undefined;
    case 'repeat':
      return node.min >= 1 ? firstLiteral(node.body) : undefined;
    case 'alternation':
      return undefined;
  }
}

/** A parser of patterns that already compile with the `u` flag (so their syntax is strict). */
class PatternParser {
  private at = 0;
  private depth = 0;

  constructor(private readonly source: string) {}

  parse(): PatternNode {
    return this.alternation();
  }

  private alternation(): PatternNode {
    const options = [this.sequence()];
    while (this.source[this.at] === '|') {
      this.at++;
      options.push(this.sequence());
    }
    return options.length === 1 ? options[0] : { kind: 'alternation', options };
  }

  private sequence(): PatternNode {
    const items: PatternNode[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')') {
      items.push(this.quantified(this.atom()));
    }
    return { kind: 'sequence', items };
  }

  private quantified(atom: PatternNode): PatternNode {
    const c = this.source[this.at];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(this.source.slice(this.at));
      if (!match) return atom;
      this.at += match[0].length;
      min = Number(match[1]);
      max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
    } else {
      return atom;
    }
    if (this.source[this.at] === '?') this.at++; // lazy: the same backtracking
    return { kind: 'repeat', min, max, body: atom };
  }

  private atom(): PatternNode {
    const start = this.at;
    const atom = this.atomAt();
    return atom.kind === 'atom' ? { ...atom, source: this.source.slice(start, this.at) } : atom;
  }

  private atomAt(): PatternNode {
    const c = this.source[this.at];
    if (c === '(') {
      if (++this.depth > MAX_GROUP_DEPTH) throw new TooDeep();
      this.at++;
      if (this.source[this.at] === '?') {
        const named = /^\?<(?![=!])[^>]*>/.exec(this.source.slice(this.at));
        this.at += named ? named[0].length : this.source.startsWith('?<', this.at) ? 3 : 2; // ?: ?= ?! | ?<= ?<! | ?<name>
      }
      const body = this.alternation();
      this.at++; // ')'
      this.depth--;
      return { kind: 'group', body };
    }
    if (c === '[') {
      this.skipClass();
      return { kind: 'atom' };
    }
    if (c === '\\') return this.escape();
    if (c === '^' || c === '$' || c === '.') {
      this.at++;
      return { kind: 'atom' };
    }
    const point = String.fromCodePoint(this.source.codePointAt(this.at)!);
    this.at += point.length;
    return { kind: 'atom', literal: point };
  }

  private escape(): PatternNode {
    const c = this.source[this.at + 1];
    this.at += 2;
    if (/[1-9]/.test(c)) {
      while (/\d/.test(this.source[this.at] ?? '')) this.at++;
      return { kind: 'atom', backReference: true };
    }
    if (c === 'k') {
      this.at = this.source.indexOf('>', this.at) + 1;
      return { kind: 'atom', backReference: true };
    }
    if ((c === 'p' || c === 'P' || c === 'u') && this.source[this.at] === '{') {
      this.at = this.source.indexOf('}', this.at) + 1;
      return { kind: 'atom' };
    }
    if (c === 'u' || c === 'x') {
      const digits = c === 'u' ? 4 : 2;
      this.at += digits;
      return { kind: 'atom', literal: String.fromCharCode(parseInt(this.source.slice(this.at - digits, this.at), 16)) };
    }
    if (c === 'c') {
      this.at++;
      return { kind: 'atom' };
    }
    const control = CONTROL[c];
    if (control !== undefined) return { kind: 'atom', literal: control };
    if (/[dDwWsSbB]/.test(c)) return { kind: 'atom' };
    return { kind: 'atom', literal: c }; // an escaped syntax character: \. \/ \- …
  }

  /** Skips a character class: `[…]`, escapes inside it included. */
  private skipClass(): void {
    this.at++;
    while (this.at < this.source.length && this.source[this.at] !== ']') {
      if (this.source[this.at] === '\\') {
        const c = this.source[this.at + 1];
        this.at += 2;
        if ((c === 'p' || c === 'P' || c === 'u') && this.source[this.at] === '{') this.at = this.source.indexOf('}', this.at) + 1;
      } else {
        this.at++;
      }
    }
    this.at++;
  }
}
