import type { ComponentKind } from '../constants';
import type { CompleteOptions, PromptOptions, ResourceOptions, ResourceTemplateOptions } from '../interfaces';

/** What each kind's decorator records: the options, with the URI or template it was given. */
export interface ComponentOptionsByKind {
  resource: ResourceOptions & { uri: string };
  'resource-template': ResourceTemplateOptions & { uriTemplate: string };
  'resource-list': object;
  prompt: PromptOptions;
  complete: CompleteOptions;
}
import { appendMethod, defineMetadata, getMetadata } from './reflect';

const optionsKey = (kind: ComponentKind) => `mcp-reflect:${kind}`;
const methodsKey = (kind: ComponentKind) => `mcp-reflect:${kind}-methods`;

/**
 * Records one decorated method of a kind (`@Resource()`, `@Prompt()`, …). The method list lives on the
 * prototype (a subclass's starts as a copy of its parent's), so subclasses inherit their parents' components.
 */
export function defineComponentMetadata<K extends ComponentKind>(kind: K, prototype: object, method: string, options: ComponentOptionsByKind[K]): void {
  appendMethod(methodsKey(kind), prototype, method);
  defineMetadata(optionsKey(kind), options, prototype, method);
}

export function getComponentMethods(kind: ComponentKind, target: Function): readonly string[] {
  return getMetadata<string[]>(methodsKey(kind), target.prototype) ?? [];
}

export function getComponentOptions<K extends ComponentKind>(kind: K, target: Function, method: string): ComponentOptionsByKind[K] | undefined {
  return getMetadata<ComponentOptionsByKind[K]>(optionsKey(kind), target.prototype, method);
}
