import { SetMetadata, type ClassOrMethodDecorator } from '../decorators';
import { getCustomMetadata } from '../metadata';

/** A typed metadata decorator made by `Reflector.createDecorator()`; pass it to `reflector.get()` as the key. */
export type ReflectableDecorator<T> = ((value: T) => ClassOrMethodDecorator) & { readonly KEY: symbol };

type Key<T> = string | symbol | ReflectableDecorator<T>;

function keyOf<T>(key: Key<T>): string | symbol {
  return typeof key === 'function' ? key.KEY : key;
}

/**
 * Reads custom metadata (`SetMetadata`, `Reflector.createDecorator`) from classes and handlers, as NestJS's
 * Reflector does. Inject it into guards and interceptors.
 *
 * @example
 * const Roles = Reflector.createDecorator<string[]>();
 * class RoleGuard implements CanActivate {
 *   constructor(private readonly reflector: Reflector) {}
 *   canActivate(context: ExecutionContext) {
 *     const roles = this.reflector.getAllAndOverride(Roles, [context.getHandler(), context.getClass()]) ?? [];
 *     return roles.length === 0 || roles.includes(String(context.auth?.role));
 *   }
 * }
 */
export class Reflector {
  /** A decorator that stores one typed value under its own key. */
  static createDecorator<T>(): ReflectableDecorator<T> {
    const KEY = Symbol('mcp-reflect:reflectable');
    return Object.assign((value: T) => SetMetadata(KEY, value), { KEY });
  }

  /** The metadata under `key` on one target (a class, or a handler from `context.getHandler()`). */
  get<T = any>(key: Key<T>, target: Function): T | undefined {
    return getCustomMetadata<T>(keyOf(key), target);
  }

  /** The values under `key` on each target, in order (undefined where absent). */
  getAll<T = any>(key: Key<T>, targets: readonly Function[]): (T | undefined)[] {
    return targets.map((target) => this.get(key, target));
  }

  /** The first defined value: with `[handler, class]`, the method's value overrides the class's. */
  getAllAndOverride<T = any>(key: Key<T>, targets: readonly Function[]): T | undefined {
    for (const target of targets) {
      const value = this.get(key, target);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /**
   * Every defined value merged, as NestJS merges them: arrays concatenated, objects spread (a later target's
   * keys win), other values collected into an array.
   */
  getAllAndMerge<T = any>(key: Key<T>, targets: readonly Function[]): T {
    const values = this.getAll(key, targets).filter((value) => value !== undefined) as unknown[];
    if (values.length === 0) return undefined as T;
    return values.reduce((merged, value) => {
      if (Array.isArray(merged)) return merged.concat(value);
      if (isObject(merged) && isObject(value)) return { ...merged, ...value };
      return [merged, value];
    }) as T;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
