import { TOOL_METADATA, TOOL_METHODS_METADATA } from '../constants';
import { defineMetadata, getMetadata } from './reflect';
import type { ToolOptions } from '../interfaces';

/** Records one `@Tool()` method. The list lives on the prototype and is copied, so subclasses inherit tools. */
export function defineToolMetadata(prototype: object, method: string, options: ToolOptions): void {
  const methods = getMetadata<string[]>(TOOL_METHODS_METADATA, prototype) ?? [];
  if (!methods.includes(method)) defineMetadata(TOOL_METHODS_METADATA, [...methods, method], prototype);
  defineMetadata(TOOL_METADATA, options, prototype, method);
}

export function getToolMethods(target: Function): readonly string[] {
  return getMetadata<string[]>(TOOL_METHODS_METADATA, target.prototype) ?? [];
}

export function getToolOptions(target: Function, method: string): ToolOptions | undefined {
  return getMetadata<ToolOptions>(TOOL_METADATA, target.prototype, method);
}
