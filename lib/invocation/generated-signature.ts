import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { GeneratedMethod, GeneratedParam, JsonSchema } from '../interfaces';
import { signatureFingerprint, type GeneratedTypes } from '../metadata';
import { generatedMetadataStaleMessage } from './method.messages';
import type { SourceParameter } from './parameter-names';

/** What a bundler or minifier keeps of one parameter position: how it is written, not what it is called. */
type Slot = 'plain' | 'initialised' | 'rest' | 'pattern';

/**
 * The generated entry of a component method, checked against the running method by what every build keeps:
 * the number of parameters, which have a default, which is `...rest` or destructured (and `fn.length` when the
 * source cannot be read), and the types the build declared (`design:paramtypes`, where they contradict the
 * file). Never by name: esbuild renames a parameter that a bundled module also declares at top level
 * (`url` → `url2`), and minifiers rename them all; the names are the file's. A real change of the signature
 * stops the bootstrap with what differs.
 */
export function generatedSignature(
  types: GeneratedTypes,
  target: Function,
  method: string,
  owner: string,
  source: readonly SourceParameter[] | undefined,
  declared: readonly unknown[] | undefined,
): GeneratedMethod | undefined {
  const found = types.method(target, method);
  if (!found) return undefined;
  const generated = found.method;
  const fn = target.prototype[method] as Function;
  const differences = generated ? compare(generated, fn, source, declared, types) : [];
  if (!generated || differences.length > 0) {
    throw new BootstrapError(
      BootstrapErrorCode.GeneratedMetadataStale,
      generatedMetadataStaleMessage(owner, found.entry.file, method, generated?.fingerprint, source && runningFingerprint(method, source), differences),
    );
  }
  return generated;
}

/** The parameter classes the generated entry names, by position (as `design:paramtypes` would list them). */
export function generatedParamTypes(types: GeneratedTypes, generated: GeneratedMethod | undefined): unknown[] | undefined {
  if (!generated) return undefined;
  const classes: unknown[] = [];
  for (const p of generated.params) classes[p.index] = p.class ? types.resolveClass(p.class) : undefined;
  return Array.from(classes);
}

/**
 * The shape of a generated fingerprint (`lookup(url, date, times=, ...rest, {})`), the names left out. A
 * destructured parameter's default is not in the fingerprint: `pattern` says nothing about it.
 */
function fingerprintSlots(fingerprint: string): Slot[] {
  const list = fingerprint.slice(fingerprint.indexOf('(') + 1, fingerprint.lastIndexOf(')')).trim();
  if (list === '') return [];
  return list.split(',').map((part): Slot => {
    const p = part.trim();
    if (p.startsWith('...')) return 'rest';
    if (p === '{}') return 'pattern';
    return p.endsWith('=') ? 'initialised' : 'plain';
  });
}

function runningFingerprint(method: string, source: readonly SourceParameter[]): string {
  return signatureFingerprint(
    method,
    source.map((p) => (p.kind === 'pattern' ? {} : { name: p.name, rest: p.kind === 'rest', initialised: p.kind === 'name' && p.initialiser !== undefined })),
  );
}

function sourceSlot(p: SourceParameter): Slot {
  if (p.kind === 'rest') return 'rest';
  if (p.kind === 'pattern') return 'pattern';
  return p.initialiser !== undefined ? 'initialised' : 'plain';
}

/** `fn.length` of a signature: the parameters before the first default or rest (unknown past a pattern). */
function arity(slots: readonly Slot[]): number | undefined {
  let count = 0;
  for (const slot of slots) {
    if (slot === 'initialised' || slot === 'rest') return count;
    if (slot === 'pattern') return undefined;
    count++;
  }
  return count;
}

function compare(
  generated: GeneratedMethod,
  fn: Function,
  source: readonly SourceParameter[] | undefined,
  declared: readonly unknown[] | undefined,
  types: GeneratedTypes,
): string[] {
  const expected = fingerprintSlots(generated.fingerprint);
  const named = (index: number) => {
    const name = generated.params.find((p) => p.index === index)?.name;
    return name && name !== '{}' ? ` '${name}'` : '';
  };
  if (!source) {
    // Native or bound: only the arity is left to compare.
    const length = arity(expected);
    return length === undefined || length === fn.length ? [] : [`fn.length is ${fn.length}, expected ${length}`];
  }
  const running = source.map(sourceSlot);
  const differences: string[] = [];
  if (running.length !== expected.length) {
    differences.push(`it has ${count(running.length)}, expected ${expected.length}`);
  }
  for (let index = 0; index < Math.min(running.length, expected.length); index++) {
    if (running[index] !== expected[index]) {
      differences.push(`parameter #${index}${named(index)} is ${SLOT_TEXT[running[index]]}, expected ${SLOT_TEXT[expected[index]]}`);
    }
  }
  if (differences.length > 0) return differences;
  for (const param of generated.params) {
    const reflected = declared?.[param.index];
    const contradiction = reflected === undefined ? undefined : typeContradiction(reflected, param, types);
    if (contradiction) differences.push(`parameter #${param.index}${named(param.index)} is declared ${contradiction.found}, expected ${contradiction.expected}`);
  }
  return differences;
}

const SLOT_TEXT: Readonly<Record<Slot, string>> = {
  plain: 'a parameter without a default',
  initialised: 'a parameter with a default',
  rest: 'a ...rest parameter',
  pattern: 'destructured',
};

function count(n: number): string {
  return `${n} parameter${n === 1 ? '' : 's'}`;
}

/** JSON types a generated schema admits, or undefined when it does not say one for sure. */
function jsonTypes(schema: JsonSchema): Set<string> | undefined {
  const type = schema.type;
  if (typeof type === 'string') return new Set([type === 'integer' ? 'number' : type]);
  if (Array.isArray(type)) return new Set((type as string[]).map((t) => (t === 'integer' ? 'number' : t)));
  const values = Array.isArray(schema.enum) ? (schema.enum as unknown[]) : 'const' in schema ? [schema.const] : undefined;
  if (values) return new Set(values.map((v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v)));
  const members = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (!Array.isArray(members)) return undefined;
  const all = new Set<string>();
  for (const member of members) {
    const some = jsonTypes(member);
    if (!some) return undefined;
    for (const t of some) all.add(t);
  }
  return all;
}

const PRIMITIVES = new Map<unknown, string>([
  [String, 'string'],
  [Number, 'number'],
  [Boolean, 'boolean'],
  [Array, 'array'],
  [Date, 'string'],
]);

/**
 * A type the build declared that the generated one cannot be (`Number` for a parameter generated as `string`):
 * only contradictions count. `Object`, `Function` and types the build erased say nothing, and the file says
 * more than the build can (a literal union is `String` there), so agreement is never required.
 */
function typeContradiction(reflected: unknown, param: GeneratedParam, types: GeneratedTypes): { found: string; expected: string } | undefined {
  if (typeof reflected !== 'function' || reflected === Object || reflected === Function) return undefined;
  const admitted = param.array ? new Set(['array']) : jsonTypes(param.schema);
  const expected = param.class ? `${param.class}${param.array ? '[]' : ''}` : admitted ? [...admitted].join(' | ') : 'another type';
  const found = (reflected as Function).name || 'a class';
  const primitive = PRIMITIVES.get(reflected);
  if (primitive !== undefined) {
    return admitted && !admitted.has(primitive) ? { found, expected } : undefined;
  }
  // A class (a DTO): the generated type names another class, or a type no object can be.
  if (param.class && !param.array) {
    const cls = types.resolveClass(param.class, reflected);
    return cls !== undefined && cls !== reflected ? { found, expected } : undefined;
  }
  return admitted && !admitted.has('object') ? { found, expected } : undefined;
}
