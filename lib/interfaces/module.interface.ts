import type { Constructor } from './class.interface';

/** A DI token: a class, a string or a symbol. */
export type InjectionToken = Function | string | symbol;

export interface ClassProvider {
  provide: InjectionToken;
  useClass: Constructor;
}
export interface ValueProvider {
  provide: InjectionToken;
  useValue: unknown;
}
export interface FactoryProvider {
  provide: InjectionToken;
  useFactory: (...args: any[]) => unknown;
  inject?: InjectionToken[];
}
export interface ExistingProvider {
  provide: InjectionToken;
  useExisting: InjectionToken;
}
export type Provider = Constructor | ClassProvider | ValueProvider | FactoryProvider | ExistingProvider;

/** A module built at runtime, as returned by `McpModule.forRoot()`. */
export interface DynamicModule extends ModuleOptions {
  module: Function;
  global?: boolean;
}

export type ModuleImport = Function | DynamicModule | Promise<DynamicModule>;

/** Options of `@Module()`. */
export interface ModuleOptions {
  imports?: ModuleImport[];
  providers?: Provider[];
  exports?: (InjectionToken | DynamicModule)[];
}

export interface InjectableOptions {
  /** Reserved for the scopes of the DI issue; only the default singleton scope exists today. */
  scope?: unknown;
}
