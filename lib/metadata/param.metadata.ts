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
  const nest = nestCustomParameters(target, method);
  // Walk the prototype chain so an overriding method without decorators falls back to its parent's.
  for (let proto = target.prototype; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto)) {
    const own = getOwnMetadata<ParamMetadata[]>(PARAMS_METADATA, proto, method);
    if (own) return nest.length === 0 ? own : withNest(own, nest);
  }
  return nest.length === 0 ? [] : withNest([], nest);
}

/** Where NestJS's `createParamDecorator()` keeps its parameters (`@nestjs/common/constants`), on the class. */
const NEST_ROUTE_ARGS = '__routeArguments__';
const NEST_CUSTOM_ARG = '__customRouteArgs__';

/**
 * The parameters of a method decorated with NestJS's `createParamDecorator()`: custom parameters, as ours are
 * (the factory gets its data and the ExecutionContext). Read so a Nest application's decorators work on
 * component methods; the values' own pipes are Nest's business (its pipes run through the Nest host).
 */
function nestCustomParameters(target: Function, method: string): ParamMetadata[] {
  const entries = getOwnMetadata<Record<string, { index?: unknown; factory?: unknown; data?: unknown }>>(NEST_ROUTE_ARGS, target, method);
  if (!entries) return [];
  return Object.entries(entries)
    .filter(([key, entry]) => key.includes(NEST_CUSTOM_ARG) && typeof entry.factory === 'function' && typeof entry.index === 'number')
    .map(([, entry]) => ({ kind: 'custom', index: entry.index as number, factory: entry.factory as (data: unknown, context: never) => unknown, data: entry.data }));
}

function withNest(own: readonly (ParamMetadata | undefined)[], nest: readonly ParamMetadata[]): (ParamMetadata | undefined)[] {
  const merged = own.slice();
  for (const entry of nest) merged[entry.index] ??= entry;
  return merged;
}
