import {
  DESIGN_PARAM_TYPES,
  GLOBAL_MODULE_METADATA,
  INJECTABLE_METADATA,
  INJECT_TOKENS_METADATA,
  MODULE_METADATA,
  NEST_SCOPE_OPTIONS_METADATA,
  OPTIONAL_DEPS_METADATA,
} from '../constants';
import type { DependencyToken, InjectableOptions, ModuleOptions } from '../interfaces';
import { defineMetadata, getMetadata, getOwnMetadata } from './reflect';

export function defineInjectableMetadata(target: Function, options: InjectableOptions): void {
  defineMetadata(INJECTABLE_METADATA, options, target);
}

export function isInjectable(target: Function): boolean {
  return getMetadata(INJECTABLE_METADATA, target) !== undefined;
}

export function getInjectableOptions(target: Function): InjectableOptions | undefined {
  return getMetadata<InjectableOptions>(INJECTABLE_METADATA, target);
}

export function defineInjectToken(target: Function, index: number, token: DependencyToken): void {
  const tokens = { ...(getOwnMetadata<Record<number, DependencyToken>>(INJECT_TOKENS_METADATA, target) ?? {}) };
  tokens[index] = token;
  defineMetadata(INJECT_TOKENS_METADATA, tokens, target);
}

/**
 * The class whose constructor `target` runs: itself, or (a subclass without a constructor of its own) the
 * nearest parent that declares one. Its constructor's `@Inject()`/`@Optional()` marks are the ones that count.
 */
function constructorOwner(target: Function): Function {
  for (let current: Function | null = target; current && current !== Function.prototype; current = Object.getPrototypeOf(current)) {
    if (getOwnMetadata(DESIGN_PARAM_TYPES, current) !== undefined) return current;
  }
  return target;
}

/** Tokens given with `@Inject(token)` on constructor parameters, by index (inherited with the constructor). */
export function getInjectTokens(target: Function): Readonly<Record<number, DependencyToken>> {
  return getOwnMetadata<Record<number, DependencyToken>>(INJECT_TOKENS_METADATA, constructorOwner(target)) ?? {};
}

export function defineOptionalDependency(target: Function, index: number): void {
  const indexes = getOwnMetadata<number[]>(OPTIONAL_DEPS_METADATA, target) ?? [];
  defineMetadata(OPTIONAL_DEPS_METADATA, [...indexes, index], target);
}

/** Constructor parameter indexes marked `@Optional()`. */
export function getOptionalDependencies(target: Function): readonly number[] {
  return getOwnMetadata<number[]>(OPTIONAL_DEPS_METADATA, constructorOwner(target)) ?? [];
}

export function defineGlobalModule(target: Function): void {
  defineMetadata(GLOBAL_MODULE_METADATA, true, target);
}

export function isGlobalModule(target: Function): boolean {
  return getOwnMetadata<boolean>(GLOBAL_MODULE_METADATA, target) === true;
}

export function defineModuleMetadata(target: Function, options: ModuleOptions): void {
  defineMetadata(MODULE_METADATA, options, target);
}

/**
 * Whether a class is a NestJS module (`@Module()` of `@nestjs/common` writes its options as the metadata keys
 * `imports`, `providers`, `controllers` and `exports`): passed to the standalone container by mistake.
 */
export function isNestModule(target: Function): boolean {
  return ['imports', 'providers', 'controllers', 'exports'].some((key) => getOwnMetadata<unknown>(key, target) !== undefined);
}

/** `@Module()` options of a class, or undefined when the class is not a module. Not inherited. */
export function getModuleMetadata(target: Function): ModuleOptions | undefined {
  return getOwnMetadata<ModuleOptions>(MODULE_METADATA, target);
}

/** The options of NestJS's own `@Injectable({ scope, durable })` on a class, when they ask for more than a singleton (Nest's `Scope.DEFAULT` is 0). */
export function getNestInjectableOptions(target: Function): { readonly scope?: unknown; readonly durable?: unknown } | undefined {
  const options = getMetadata<{ scope?: unknown; durable?: unknown }>(NEST_SCOPE_OPTIONS_METADATA, target);
  return options && ((options.scope !== undefined && options.scope !== 0) || options.durable === true) ? options : undefined;
}
