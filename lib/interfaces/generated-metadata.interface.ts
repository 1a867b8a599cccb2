import type { JsonSchema } from './json-schema.interface';

/**
 * What `mcp-reflect generate` writes: the full TypeScript types of every component method and of every DTO
 * class they reach, read by the compiler at build time. Load it with `McpFactory.create(AppModule, { metadata })`
 * or `McpModule.forRoot({ metadata })`. Explicit decorator options still win over it; class-validator rules
 * still apply on top of it.
 */
export interface GeneratedMetadata {
  /** Format of this object; a newer library reads older formats. */
  readonly version: 1;
  /** The package and version that wrote it (`mcp-reflect@0.1.0`). */
  readonly generator: string;
  readonly classes: readonly GeneratedClass[];
}

/** One class: a component class (its methods) or a DTO class (its properties). */
export interface GeneratedClass {
  readonly name: string;
  /** Source file, relative to the tsconfig's folder. */
  readonly file: string;
  /** The class itself when the generated module could import it (exported classes); else matched by name. */
  readonly ref?: Function;
  /** Component methods by name. */
  readonly methods?: Readonly<Record<string, GeneratedMethod>>;
  /** DTO properties by name, in declaration order. */
  readonly properties?: Readonly<Record<string, GeneratedProperty>>;
}

export interface GeneratedMethod {
  /**
   * Fingerprint of the signature as written (`lookup(url, times=)`): its shape (the number of parameters, which
   * have a default, which are rest or destructured) is what the bootstrap compares with the running method, so a
   * bundler's renaming (`url` → `url2`) is no mismatch; the names it advertises are the params' names.
   */
  readonly fingerprint: string;
  /** The method's JSDoc text. */
  readonly description?: string;
  readonly params: readonly GeneratedParam[];
}

/** The type of one parameter or property, as far as JSON Schema can say it. */
export interface GeneratedType {
  /** The complete JSON Schema of the type (DTO classes inlined), used as it is when no class applies. */
  readonly schema: JsonSchema;
  /** A class type (`Date` or a DTO class), or an array of one: built from the class itself when it is found. */
  readonly class?: string;
  readonly array?: boolean;
  /** `T | null`. */
  readonly nullable?: boolean;
  /** `?`, `| undefined` or an initialiser. */
  readonly optional?: boolean;
  /** A literal initialiser. */
  readonly default?: unknown;
  readonly description?: string;
  readonly examples?: readonly unknown[];
  readonly deprecated?: boolean;
}

export interface GeneratedParam extends GeneratedType {
  readonly name: string;
  readonly index: number;
}

export interface GeneratedProperty extends GeneratedType {
  /** The property carries at least one decorator (class-validator, class-transformer or `@Field()`). */
  readonly decorated: boolean;
}
