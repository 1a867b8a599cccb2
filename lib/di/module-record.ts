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

/** One provider inside one module: how to build it, what it needs, and (once built) its instance. */
export interface ProviderRecord {
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
  /** Filled when the graph is linked: the provider each dependency resolves to (undefined: optional and missing). */
  resolved?: (ProviderRecord | undefined)[];
  /** True when this provider, or anything it depends on, lives per request. */
  requestScoped?: boolean;
  instance?: unknown;
  built?: boolean;
  pending?: Promise<unknown>;
  /** The object handed out early to a `forwardRef` consumer while this provider is still being built. */
  early?: object;
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
