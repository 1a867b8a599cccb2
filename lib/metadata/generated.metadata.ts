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
  const own = byRef.get(cls);
  if (own) return own;
  const named = byName.get(cls.name)?.filter((e) => e.ref === undefined || e.ref === cls);
  return named?.length === 1 ? named[0] : undefined;
}

/** The generated entry of a component method, if its class has one. */
export function getGeneratedMethod(cls: Function, method: string): { entry: GeneratedClass; method?: GeneratedMethod } | undefined {
  for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
    const entry = getGeneratedClass(c);
    if (entry?.methods) return { entry, method: entry.methods[method] };
  }
  return undefined;
}

/** Generated properties of a DTO class, own and inherited (a subclass's entry lists inherited ones too). */
export function getGeneratedProperties(cls: Function): Readonly<Record<string, GeneratedProperty>> | undefined {
  return getGeneratedClass(cls)?.properties;
}

/** A class named in generated metadata (`Date`, or a DTO the generated module imported). */
export function resolveGeneratedClass(name: string, candidate?: unknown): Function | undefined {
  if (name === 'Date') return Date;
  if (typeof candidate === 'function' && candidate.name === name) return candidate;
  const refs = (byName.get(name) ?? []).map((e) => e.ref).filter((r): r is Function => r !== undefined);
  return refs.length === 1 ? refs[0] : undefined;
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
