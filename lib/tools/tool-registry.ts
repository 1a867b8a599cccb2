import { TOOL_NAME_PATTERN } from '../constants';
import type { MethodHost } from '../invocation';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ToolOptions } from '../interfaces';
import { getToolMethods, getToolOptions } from '../metadata';
import type { SchemaCompiler } from '../validation';
import { buildTool } from './tool-builder';
import type { ToolDefinition, ToolDescriptor } from './tool-definition';
import { duplicateToolNameMessage, invalidToolNameMessage } from './tool.messages';

/** A class with `@Tool()` methods, as the container provides it. */
export type ToolHost = MethodHost;

/**
 * Every tool of the application, built once at bootstrap. `tools/list` is answered from the precomputed
 * descriptor list; `tools/call` looks the tool up by name.
 */
export class ToolRegistry {
  private readonly byName = new Map<string, ToolDefinition>();
  private listCache?: readonly ToolDescriptor[];

  static discover(hosts: Iterable<ToolHost>, compiler: SchemaCompiler): ToolRegistry {
    const registry = new ToolRegistry();
    const seenTargets = new Set<Function>();
    for (const host of hosts) {
      const { target } = host;
      if (seenTargets.has(target)) continue;
      seenTargets.add(target);
      for (const method of getToolMethods(target)) {
        const options: ToolOptions = getToolOptions(target, method) ?? {};
        const name = options.name ?? method;
        if (!TOOL_NAME_PATTERN.test(name)) {
          throw new BootstrapError(BootstrapErrorCode.InvalidToolName, invalidToolNameMessage(name, target.name, method));
        }
        const existing = registry.byName.get(name);
        if (existing) {
          throw new BootstrapError(
            BootstrapErrorCode.DuplicateToolName,
            duplicateToolNameMessage(name, `${existing.className}.${existing.methodName}`, `${target.name}.${method}`),
          );
        }
        registry.byName.set(name, buildTool(host, method, options, compiler));
      }
    }
    return registry;
  }

  get(name: string): ToolDefinition | undefined {
    return this.byName.get(name);
  }

  get size(): number {
    return this.byName.size;
  }

  /** The `tools/list` entries, in discovery order; computed once. */
  list(): readonly ToolDescriptor[] {
    return (this.listCache ??= Object.freeze([...this.byName.values()].map((t) => t.descriptor)));
  }
}
