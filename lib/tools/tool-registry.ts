import { Catalogue, passesTags, type TagFilter } from '../catalogue';
import { TOOL_NAME_PATTERN } from '../constants';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { JsonSchema, ToolOptions } from '../interfaces';
import type { MethodHost } from '../invocation';
import { getToolMethods, getToolOptions } from '../metadata';
import type { SchemaCompiler } from '../validation';
import { buildTool } from './tool-builder';
import type { ToolDefinition, ToolDescriptor } from './tool-definition';
import { duplicateToolNameMessage, invalidToolNameMessage } from './tool.messages';

/** A class with `@Tool()` methods, as the container provides it. */
export type ToolHost = MethodHost;

/**
 * Every tool of the application, built at bootstrap (or when added at runtime). `tools/list` is answered
 * from the catalogue's precomputed pages; `tools/call` looks the tool up by name.
 */
export class ToolRegistry extends Catalogue<ToolDefinition & { tags?: readonly string[] }, ToolDescriptor> {
  /**
   * Identical schemas share one object: tools/list results are validated by the SDK on every request, and
   * its validator short-cuts objects it has already seen in the same parse.
   */
  private readonly schemas = new Map<string, JsonSchema>();
  private readonly intern = (schema: JsonSchema): JsonSchema => {
    const key = JSON.stringify(schema);
    const known = this.schemas.get(key);
    if (known) return known;
    this.schemas.set(key, schema);
    return schema;
  };

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly filter: TagFilter = {},
    pageSize?: number,
  ) {
    super('tool', (tool) => tool.descriptor, pageSize);
  }

  /** Builds every `@Tool()` method of `host`; returns the names of the tools it exposes. */
  addHost(host: MethodHost): string[] {
    const added: string[] = [];
    for (const method of getToolMethods(host.target)) {
      const options: ToolOptions = getToolOptions(host.target, method) ?? {};
      const name = options.name ?? method;
      if (!TOOL_NAME_PATTERN.test(name)) {
        throw new BootstrapError(BootstrapErrorCode.InvalidToolName, invalidToolNameMessage(name, host.target.name, method));
      }
      const existing = this.find(name);
      if (existing) {
        throw new BootstrapError(
          BootstrapErrorCode.DuplicateToolName,
          duplicateToolNameMessage(name, `${existing.className}.${existing.methodName}`, `${host.target.name}.${method}`),
        );
      }
      const tool = { ...buildTool(host, method, options, this.compiler, this.intern), tags: options.tags };
      if (!passesTags(options.tags, this.filter)) continue;
      this.add(tool);
      added.push(name);
    }
    return added;
  }
}
