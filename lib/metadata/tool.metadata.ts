import { TOOL_METADATA, TOOL_METHODS_METADATA } from '../constants';
import { appendMethod, defineMetadata, getMetadata } from './reflect';
import type { ToolOptions } from '../interfaces';

/** Records one `@Tool()` method. The list lives on the prototype (a subclass's starts as a copy of its parent's), so subclasses inherit tools. */
export function defineToolMetadata(prototype: object, method: string, options: ToolOptions): void {
  appendMethod(TOOL_METHODS_METADATA, prototype, method);
  defineMetadata(TOOL_METADATA, options, prototype, method);
}

export function getToolMethods(target: Function): readonly string[] {
  return getMetadata<string[]>(TOOL_METHODS_METADATA, target.prototype) ?? [];
}

export function getToolOptions(target: Function, method: string): ToolOptions | undefined {
  return getMetadata<ToolOptions>(TOOL_METADATA, target.prototype, method);
}
