import type { GeneratedClass, GeneratedMetadata, GeneratedMethod, GeneratedProperty } from '../interfaces';

/**
 * The types `mcp-reflect generate` read at build time, as one application loaded them
 * (`McpFactory.create(AppModule, { metadata })` or `McpModule.forRoot({ metadata })`): an immutable index built
 * once at bootstrap and handed down the compile path (the hosts, the schema builders), so two applications in
 * one process with different generated modules never see each other's types. Entries are matched by class
 * reference (exported classes, imported by the generated module) or else by class name.
 */
export class GeneratedTypes {
  /** An application that loaded no generated module (one shared instance: it is empty and never changes). */
  static readonly none = new GeneratedTypes({ version: 1, generator: '', classes: [] });

  private readonly byRef = new Map<Function, GeneratedClass>();
  private readonly byName = new Map<string, GeneratedClass[]>();

  constructor(metadata: GeneratedMetadata) {
    for (const entry of metadata.classes) {
      if (entry.ref) this.byRef.set(entry.ref, entry);
      const list = this.byName.get(entry.name) ?? [];
      // Two entries of one class (same name and file): the later one is kept.
      this.byName.set(entry.name, [entry, ...list.filter((e) => e.file !== entry.file)]);
    }
  }

  /** True when a generated module with at least one class was loaded. */
  get loaded(): boolean {
    return this.byName.size > 0;
  }

  /** The entry of a class: by reference, else the only entry of that name (several unexported namesakes: none). */
  classEntry(cls: Function): GeneratedClass | undefined {
    if (this.byName.size === 0) return undefined; // nothing generated was loaded: the common case, one check
    const own = this.byRef.get(cls);
    if (own) return own;
    const named = this.byName.get(cls.name)?.filter((e) => e.ref === undefined || e.ref === cls);
    return named?.length === 1 ? named[0] : undefined;
  }

  /**
   * The generated entry of a component method: the nearest entry of the class chain that lists it (a tool
   * inherited from a base class is in the base class's entry). With none, the nearest entry with methods, so a
   * method added since the file was generated reads as stale there.
   */
  method(cls: Function, method: string): { entry: GeneratedClass; method?: GeneratedMethod } | undefined {
    if (this.byName.size === 0) return undefined;
    let nearest: GeneratedClass | undefined;
    for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
      const entry = this.classEntry(c);
      if (entry?.methods && Object.hasOwn(entry.methods, method)) return { entry, method: entry.methods[method] };
      if (entry?.methods) nearest ??= entry;
    }
    return nearest ? { entry: nearest } : undefined;
  }

  /** True when the class or one of its base classes has an entry with component methods. */
  hasMethods(cls: Function): boolean {
    for (let c: Function | null = cls; c && c !== Function.prototype; c = Object.getPrototypeOf(c) as Function | null) {
      if (this.classEntry(c)?.methods) return true;
    }
    return false;
  }

  /** Generated properties of a DTO class, own and inherited (a subclass's entry lists inherited ones too). */
  properties(cls: Function): Readonly<Record<string, GeneratedProperty>> | undefined {
    return this.classEntry(cls)?.properties;
  }

  /**
   * A class named in generated metadata (`Date`, or a DTO the generated module imported): `Name`, or
   * `file#Name` when several collected classes have that name. A non-exported class has no reference: none is
   * found.
   */
  resolveClass(name: string, candidate?: unknown): Function | undefined {
    if (name === 'Date') return Date;
    const hash = name.lastIndexOf('#');
    const file = hash < 0 ? undefined : name.slice(0, hash);
    const bare = name.slice(hash + 1);
    if (typeof candidate === 'function' && candidate.name === bare) return candidate;
    const entries = (this.byName.get(bare) ?? []).filter((e) => file === undefined || e.file === file);
    if (entries.length !== 1) return undefined;
    return entries[0].ref;
  }
}

/** One parameter as both the compiler and the compiled method show it. */
export interface SignatureParameter {
  readonly name?: string;
  readonly initialised?: boolean;
  readonly rest?: boolean;
}

/**
 * The fingerprint of a method signature, readable in messages: `greet(name, times=, {})`, with the names as
 * written in the sources. The bootstrap compares its shape (how many parameters, which have a default, which
 * are `...rest` or destructured), never its names: bundlers and minifiers rename parameters
 * (lib/invocation/generated-signature.ts).
 */
export function signatureFingerprint(method: string, params: readonly SignatureParameter[]): string {
  const list = params.map((p) => (p.rest ? `...${p.name ?? ''}` : p.name === undefined ? '{}' : `${p.name}${p.initialised ? '=' : ''}`));
  return `${method}(${list.join(', ')})`;
}
