import type { GeneratedClass, GeneratedMetadata, GeneratedMethod, GeneratedProperty } from '../interfaces';

/**
 * The types `mcp-reflect generate` read at build time, kept beside the decorators' metadata: like decorator
 * metadata they describe classes, so one process-wide store serves every application. Entries are matched by
 * class reference (exported classes, imported by the generated module) or else by class name.
 */
const byRef = new Map<Function, GeneratedClass>();
const byName = new Map<string, GeneratedClass[]>();

/** Adds a generated module's classes; an entry for a class already known replaces it (the newest load wins). */
export function loadGeneratedMetadata(metadata: GeneratedMetadata): void {
  for (const entry of metadata.classes) {
    if (entry.ref) byRef.set(entry.ref, entry);
    const list = byName.get(entry.name) ?? [];
    byName.set(entry.name, [entry, ...list.filter((e) => e.file !== entry.file)]);
  }
}

/** The entry of a class: by reference, else the only entry of that name (several unexported namesakes: none). */
export function getGeneratedClass(cls: Function): GeneratedClass | undefined {
  if (byName.size === 0) return undefined; // nothing generated was loaded: the common case, one check
  const own = byRef.get(cls);
  if (own) return own;
  const named = byName.get(cls.name)?.filter((e) => e.ref === undefined || e.ref === cls);
  return named?.length === 1 ? named[0] : undefined;
}

/**
 * The generated entry of a component method: the nearest entry of the class chain that lists it (a tool inherited
 * from a base class is in the base class's entry). With none, the nearest entry with methods, so a method added
 * since the file was generated reads as stale there.
 */
export function getGeneratedMethod(cls: Function, method: string): { entry: GeneratedClass; method?: GeneratedMethod } | undefined {
  if (byName.size === 0) return undefined;
  let nearest: GeneratedClass | undefined;
  for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
    const entry = getGeneratedClass(c);
    if (entry?.methods && Object.hasOwn(entry.methods, method)) return { entry, method: entry.methods[method] };
    if (entry?.methods) nearest ??= entry;
  }
  return nearest ? { entry: nearest } : undefined;
}

/** True when the class or one of its base classes has an entry with component methods. */
export function hasGeneratedMethods(cls: Function): boolean {
  for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
    if (getGeneratedClass(c)?.methods) return true;
  }
  return false;
}

/** Generated properties of a DTO class, own and inherited (a subclass's entry lists inherited ones too). */
export function getGeneratedProperties(cls: Function): Readonly<Record<string, GeneratedProperty>> | undefined {
  return getGeneratedClass(cls)?.properties;
}

/**
 * A class named in generated metadata (`Date`, or a DTO the generated module imported): `Name`, or `file#Name`
 * when several collected classes have that name. A non-exported class has no reference: none is found.
 */
export function resolveGeneratedClass(name: string, candidate?: unknown): Function | undefined {
  if (name === 'Date') return Date;
  const hash = name.lastIndexOf('#');
  const file = hash < 0 ? undefined : name.slice(0, hash);
  const bare = name.slice(hash + 1);
  if (typeof candidate === 'function' && candidate.name === bare) return candidate;
  const entries = (byName.get(bare) ?? []).filter((e) => file === undefined || e.file === file);
  if (entries.length !== 1) return undefined;
  return entries[0].ref;
}

/** One parameter as both the compiler and the compiled method show it. */
export interface SignatureParameter {
  readonly name?: string;
  readonly initialised?: boolean;
  readonly rest?: boolean;
}

/**
 * The fingerprint of a method signature, readable in messages: `greet(name, times=, {})`. Built from what
 * survives compilation (names, defaults, destructuring), so the generator and the running class compute
 * the same text; a type change alone is caught by `mcp-reflect generate --check`, not here.
 */
export function signatureFingerprint(method: string, params: readonly SignatureParameter[]): string {
  const list = params.map((p) => (p.rest ? `...${p.name ?? ''}` : p.name === undefined ? '{}' : `${p.name}${p.initialised ? '=' : ''}`));
  return `${method}(${list.join(', ')})`;
}
