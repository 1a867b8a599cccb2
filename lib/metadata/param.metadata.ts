import { PARAMS_METADATA } from '../constants';
import type { ParamOptions } from '../interfaces';
import { defineMetadata, getOwnMetadata } from './reflect';

/** How one method parameter is bound at call time. */
export type ParamMetadata =
  | { readonly kind: 'param'; readonly index: number; readonly name?: string; readonly options: ParamOptions; readonly pipes?: readonly unknown[] }
  | { readonly kind: 'args'; readonly index: number; readonly pipes?: readonly unknown[] }
  | { readonly kind: 'ctx'; readonly index: number }
  /** A parameter decorator made with `createParamDecorator()`: its factory computes the value per call. */
  | { readonly kind: 'custom'; readonly index: number; readonly factory: (data: unknown, context: never) => unknown; readonly data: unknown; readonly pipes?: readonly unknown[] };

/** Stores one entry per decorated parameter, in one array per method indexed by position. */
export function defineParamMetadata(prototype: object, method: string, entry: ParamMetadata): void {
  const existing = getOwnMetadata<ParamMetadata[]>(PARAMS_METADATA, prototype, method) ?? [];
  const next = existing.slice();
  next[entry.index] = entry;
  defineMetadata(PARAMS_METADATA, next, prototype, method);
}

/** The decorated parameters of a method (sparse: undecorated positions are holes). */
export function getParamMetadata(target: Function, method: string): readonly (ParamMetadata | undefined)[] {
  // Walk the prototype chain so an overriding method without decorators falls back to its parent's.
  for (let proto = target.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own = getOwnMetadata<ParamMetadata[]>(PARAMS_METADATA, proto, method);
    if (own) return own;
  }
  return [];
}
