import type { Constructor, InjectionToken } from '../interfaces';

/** One provider inside one module: how to build it, and (once built) its instance. */
export interface ProviderRecord {
  readonly token: InjectionToken;
  readonly module: ModuleRecord;
  readonly recipe:
    | { readonly kind: 'class'; readonly useClass: Constructor }
    | { readonly kind: 'value'; readonly useValue: unknown }
    | { readonly kind: 'factory'; readonly useFactory: (...args: any[]) => unknown; readonly inject: InjectionToken[] }
    | { readonly kind: 'existing'; readonly useExisting: InjectionToken };
  instance?: unknown;
  pending?: Promise<unknown>;
}

/** One module of the graph, after `@Module()` metadata and dynamic-module fields are merged. */
export class ModuleRecord {
  readonly providers = new Map<InjectionToken, ProviderRecord>();
  readonly imports: ModuleRecord[] = [];
  readonly exportedTokens = new Set<InjectionToken>();
  readonly exportedModules: ModuleRecord[] = [];
  global = false;

  constructor(
    readonly metatype: Function,
    readonly name: string,
  ) {}
}
