import type { Scope } from '../constants';
import type { Constructor } from './class.interface';
import type { ComponentTransforms } from './transform.interface';

/** A DI token: a class, a string or a symbol. */
export type InjectionToken = Function | string | symbol;

/** A reference resolved late, for classes and modules that import each other: `forwardRef(() => B)`. */
export interface ForwardReference<T = unknown> {
  forwardRef: () => T;
}

/** A dependency as `@Inject()` and `inject: [...]` accept it. */
export type DependencyToken = InjectionToken | ForwardReference;

export interface ClassProvider {
  provide: InjectionToken;
  useClass: Constructor;
  scope?: Scope;
}
export interface ValueProvider {
  provide: InjectionToken;
  useValue: unknown;
}
export interface FactoryProvider {
  provide: InjectionToken;
  useFactory: (...args: any[]) => unknown;
  /** Tokens whose instances are passed to the factory; `{ token, optional: true }` passes undefined when missing. */
  inject?: (DependencyToken | { token: DependencyToken; optional?: boolean })[];
  scope?: Scope;
}
export interface ExistingProvider {
  provide: InjectionToken;
  useExisting: DependencyToken;
}
export type Provider = Constructor | ClassProvider | ValueProvider | FactoryProvider | ExistingProvider;

/** A module built at runtime, as returned by `McpModule.forRoot()`. */
export interface DynamicModule extends ModuleOptions {
  module: Function;
  global?: boolean;
}

export type ModuleImport = Function | DynamicModule | Promise<DynamicModule> | ForwardReference;

/** Options of `@Module()`. */
export interface ModuleOptions {
  imports?: ModuleImport[];
  providers?: Provider[];
  exports?: (InjectionToken | DynamicModule)[];
}

/** Options of `McpModule.forFeature()`: what the components of the module importing it are served under. */
export interface McpFeatureOptions {
  /**
   * Prefixes every component the module provides: tools and prompts `<namespace>_<name>`, resource URIs and
   * URI templates `scheme://<namespace>/…`. Letters, digits, `-` and `.` (docs/composition.md).
   */
  namespace?: string;
  /**
   * Renames, rewords, retags, disables and reshapes the module's components, keyed by their declared names;
   * the namespace is applied after (docs/composition.md#transforms).
   */
  transforms?: ComponentTransforms;
}

/** Options of `app.tools.add(instance, options)` (and of `McpComponents`' controls). */
export interface AddOptions {
  /** Serves the object's components under this namespace (`<namespace>_<name>`, `scheme://<namespace>/…`). */
  readonly namespace?: string;
  /** Transforms of the object's components, keyed by their declared names (docs/composition.md#transforms). */
  readonly transforms?: ComponentTransforms;
}

/** The served names of what `app.tools.add()` (or another kind's `add()`) registered: remove exactly these later. */
export interface AddedComponents {
  readonly tools: readonly string[];
  readonly resources: readonly string[];
  readonly templates: readonly string[];
  readonly prompts: readonly string[];
}

export interface InjectableOptions {
  /** How long instances live (default: one per application). */
  scope?: Scope;
}

/** Component kinds a server declares even while the application has none of them (`McpModule.forRoot({ capabilities })`). */
export interface DeclaredKinds {
  tools?: boolean;
  resources?: boolean;
  prompts?: boolean;
  /** `logging`: declared by default only when some component receives a Context (the only way to log to a client). */
  logging?: boolean;
}
