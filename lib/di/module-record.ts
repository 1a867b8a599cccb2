import type { Scope } from '../constants';
import type { Constructor, DependencyToken, InjectionToken } from '../interfaces';

/** One constructor parameter or factory argument, as declared. */
export interface Dependency {
  readonly token: DependencyToken;
  readonly optional: boolean;
  /** Written as `forwardRef(() => X)`: X may still be under construction when this is injected. */
  readonly forward: boolean;
}

export type Recipe =
  | { readonly kind: 'class'; readonly useClass: Constructor }
  | { readonly kind: 'value'; readonly useValue: unknown }
  | { readonly kind: 'factory'; readonly useFactory: (...args: any[]) => unknown }
  | { readonly kind: 'existing'; readonly useExisting: DependencyToken }
  /** A value that only exists during a request (the Context), read from the request scope by key. */
  | { readonly kind: 'request-value'; readonly key: string };

/** A provider as declared: how to build it and what it needs. Made by the scanner, never changed. */
export interface ProviderDefinition {
  readonly token: InjectionToken;
  readonly module: ModuleRecord;
  readonly recipe: Recipe;
  readonly scope: Scope;
  /** What the recipe needs, in argument order; `useExisting` has its one target here. */
  readonly dependencies: readonly Dependency[];
  /** For providers of a repeatable token (APP_GUARD, …): that token; `token` is then unique to this provider. */
  readonly multi?: symbol;
  /** For messages: the constructor/factory as the user wrote it, e.g. `WeatherTools` or `the factory of 'CONFIG'`. */
  readonly owner: string;
}

/** What linking found out about a provider: set once, by the linker. */
export interface ProviderLinks {
  /** The provider each dependency resolves to (undefined: optional and missing). */
  readonly resolved: readonly (ProviderRecord | undefined)[];
  /** True when this provider, or anything it depends on, lives per request. */
  readonly requestScoped: boolean;
}

/** A singleton's instance and how far it is built: changed by the injector only. */
export interface InstanceState {
  instance?: unknown;
  built: boolean;
  pending?: Promise<unknown>;
  /** The object handed out early to a `forwardRef` consumer while this provider is still being built. */
  early?: object;
}

/**
 * One provider of the graph (Nest's instance wrapper): its definition (immutable), its links (set once by the
 * linker) and its instance state (owned by the injector). Everything else only reads it.
 */
export class ProviderRecord implements ProviderDefinition {
  readonly state: InstanceState = { built: false };
  private links?: ProviderLinks;

  constructor(readonly definition: ProviderDefinition) {}

  get token(): InjectionToken {
    return this.definition.token;
  }
  get module(): ModuleRecord {
    return this.definition.module;
  }
  get recipe(): Recipe {
    return this.definition.recipe;
  }
  get scope(): Scope {
    return this.definition.scope;
  }
  get dependencies(): readonly Dependency[] {
    return this.definition.dependencies;
  }
  get multi(): symbol | undefined {
    return this.definition.multi;
  }
  get owner(): string {
    return this.definition.owner;
  }

  get linked(): boolean {
    return this.links !== undefined;
  }
  /** The providers the dependencies resolve to (empty before linking). */
  get resolved(): readonly (ProviderRecord | undefined)[] {
    return this.links?.resolved ?? [];
  }
  get requestScoped(): boolean {
    return this.links?.requestScoped ?? false;
  }
  /** @internal The linker's, once. */
  link(links: ProviderLinks): void {
    if (this.links) throw new Error(`${this.owner} is linked already`);
    this.links = links;
  }

  get instance(): unknown {
    return this.state.instance;
  }
  get built(): boolean {
    return this.state.built;
  }
}

/** One module of the graph, after `@Module()` metadata and dynamic-module fields are merged. */
export class ModuleRecord {
  readonly providers = new Map<InjectionToken, ProviderRecord>();
  readonly imports: ModuleRecord[] = [];
  readonly exportedTokens = new Set<InjectionToken>();
  readonly exportedModules: ModuleRecord[] = [];
  global = false;
  /** Longest import chain below this module: imported modules initialise first (lower depth first). */
  depth = 0;

  constructor(
    readonly metatype: Function,
    readonly name: string,
  ) {}
}
