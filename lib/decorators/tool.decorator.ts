import { legacyOnly } from './legacy-only';
import type { ToolOptions } from '../interfaces';
import { defineToolMetadata, recordComponentClass } from '../metadata';

/**
 * Exposes a method as an MCP tool. Only writes metadata: the method itself is left untouched.
 *
 * @example
 * class Calculator {
 *   @Tool({ description: 'Add two numbers' })
 *   add(@Param() a: number, @Param() b: number): number { return a + b; }
 * }
 */
export function Tool(options: ToolOptions = {}): MethodDecorator {
  return (target, propertyKey) => {
    legacyOnly('@Tool()', propertyKey);
    recordComponentClass(target);
    defineToolMetadata(target, String(propertyKey), { ...options });
  };
}
