import type { ComponentKind } from '../constants';
import { defineMetadata, getMetadata } from './reflect';

const optionsKey = (kind: ComponentKind) => `mcp-reflect:${kind}`;
const methodsKey = (kind: ComponentKind) => `mcp-reflect:${kind}-methods`;

/**
 * Records one decorated method of a kind (`@Resource()`, `@Prompt()`, …). The method list lives on the
 * prototype and is copied, so subclasses inherit their parents' components.
 */
export function defineComponentMetadata(kind: ComponentKind, prototype: object, method: string, options: object): void {
  const methods = getMetadata<string[]>(methodsKey(kind), prototype) ?? [];
  if (!methods.includes(method)) defineMetadata(methodsKey(kind), [...methods, method], prototype);
  defineMetadata(optionsKey(kind), options, prototype, method);
}

export function getComponentMethods(kind: ComponentKind, target: Function): readonly string[] {
  return getMetadata<string[]>(methodsKey(kind), target.prototype) ?? [];
}

export function getComponentOptions<T>(kind: ComponentKind, target: Function, method: string): T | undefined {
  return getMetadata<T>(optionsKey(kind), target.prototype, method);
}
