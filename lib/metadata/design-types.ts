import { DESIGN_PARAM_TYPES, DESIGN_RETURN_TYPE, DESIGN_TYPE } from '../constants';
import { defineMetadata, getMetadata } from './reflect';

/**
 * The types TypeScript emitted for a method's parameters (`emitDecoratorMetadata`), or undefined when the
 * compiler did not emit them (the option is off, or a tool such as esbuild dropped them).
 */
export function getParamTypes(prototype: object, method: string): unknown[] | undefined {
  return getMetadata<unknown[]>(DESIGN_PARAM_TYPES, prototype, method);
}

export function getReturnType(prototype: object, method: string): unknown {
  return getMetadata(DESIGN_RETURN_TYPE, prototype, method);
}

export function getPropertyType(prototype: object, property: string): unknown {
  return getMetadata(DESIGN_TYPE, prototype, property);
}

/** Constructor parameter types; undefined when the class has no decorator (TypeScript then emits nothing). */
export function getConstructorParamTypes(target: object): unknown[] | undefined {
  return getMetadata<unknown[]>(DESIGN_PARAM_TYPES, target);
}

/**
 * Writes the parameter types TypeScript would emit for a method, for a class made at runtime (a proxied
 * server's components): what `getParamTypes()` then reads.
 */
export function defineParamTypes(prototype: object, method: string, types: readonly unknown[]): void {
  defineMetadata(DESIGN_PARAM_TYPES, [...types], prototype, method);
}
