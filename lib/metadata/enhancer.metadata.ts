import { CATCH_METADATA, FILTERS_METADATA, GUARDS_METADATA, INTERCEPTORS_METADATA, NEST_ENHANCER_KEYS, PIPES_METADATA } from '../constants';
import { defineMetadata, getMetadata, getOwnMetadata } from './reflect';

/** The four kinds of enhancers a class or method can carry. */
export type EnhancerKind = 'guards' | 'interceptors' | 'pipes' | 'filters';

const KEYS: Record<EnhancerKind, string> = {
  guards: GUARDS_METADATA,
  interceptors: INTERCEPTORS_METADATA,
  pipes: PIPES_METADATA,
  filters: FILTERS_METADATA,
};

/**
 * Appends enhancers (classes or instances) to a class (`method` undefined) or to one method. Repeated
 * decorators add up, in the order they are written.
 */
export function defineEnhancers(kind: EnhancerKind, target: object, method: string | undefined, items: readonly unknown[]): void {
  const current = getOwnMetadata<unknown[]>(KEYS[kind], target, method) ?? [];
  // Decorators run bottom-up; prepend so the written order (top first) is the running order.
  defineMetadata(KEYS[kind], [...items, ...current], target, method);
}

/** Enhancers of a class (inherited from parent classes), or of one of its methods (inherited with the method). */
export function getEnhancers(kind: EnhancerKind, target: Function, method?: string): readonly unknown[] {
  if (method === undefined) return getMetadata<unknown[]>(KEYS[kind], target) ?? [];
  return getMetadata<unknown[]>(KEYS[kind], target.prototype, method) ?? [];
}

/**
 * The kinds of enhancers NestJS's own `@UseGuards()` & co. put on a class (`method` undefined), or on one method
 * (Nest keeps those on the method's function).
 */
export function getNestEnhancerKinds(target: Function, method?: string): EnhancerKind[] {
  const holder = method === undefined ? target : (target.prototype as Record<string, unknown>)[method];
  if (typeof holder !== 'function') return [];
  return (Object.keys(NEST_ENHANCER_KEYS) as EnhancerKind[]).filter((kind) => (getMetadata<unknown[]>(NEST_ENHANCER_KEYS[kind], holder)?.length ?? 0) > 0);
}

/** `@Catch(...types)` of an exception filter class; an empty list catches everything. */
export function defineCatch(target: Function, types: readonly Function[]): void {
  defineMetadata(CATCH_METADATA, [...types], target);
}

export function getCatch(target: Function): readonly Function[] | undefined {
  return getMetadata<Function[]>(CATCH_METADATA, target);
}

/**
 * Custom metadata (`SetMetadata`, `Reflector.createDecorator`), as NestJS stores it: on the class, or on the
 * method's function, so `reflector.get(key, context.getHandler())` finds it.
 */
export function defineCustomMetadata(key: unknown, value: unknown, target: object): void {
  defineMetadata(key as string, value, target);
}

export function getCustomMetadata<T>(key: unknown, target: object): T | undefined {
  return getMetadata<T>(key as string, target);
}
