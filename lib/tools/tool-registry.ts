import { LRUCache } from 'lru-cache';
import { Catalogue, passesTags, type TagFilter } from '../catalogue';
import { TOOL_NAME_PATTERN } from '../constants';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { JsonSchema, SchemaRefs, ToolOptions } from '../interfaces';
import type { CallPolicy } from '../invocation';
import type { ComponentRecord, PipelineServices } from '../pipeline';
import { DEFAULT_RECURSION_DEPTH } from '../schema';
import type { SchemaCompiler } from '../validation';
import { buildTool } from './tool-builder';
import type { ToolDefinition, ToolDescriptor } from './tool-definition';
import { duplicateToolNameMessage, invalidToolNameMessage } from './tool.messages';

/** What the application's options say about its tools (`McpModule.forRoot({ schemaRefs, toolSearch })`). */
export interface ToolRegistrySettings {
  readonly schemaRefs?: SchemaRefs;
  readonly reserved?: ReadonlySet<string>;
}

const NONE: ReadonlySet<string> = new Set();
/** Schema text (JSON characters) of the schemas the tools share by identity. */
const INTERNED_SCHEMA_BYTES = 1024 * 1024;

/**
 * Every tool of the application, built at bootstrap (or when added at runtime). `tools/list` is answered
 * from the catalogue's precomputed pages; `tools/call` looks the tool up by name.
 */
export class ToolRegistry extends Catalogue<ToolDefinition, ToolDescriptor> {
  /**
   * Identical schemas share one object: tools/list results are validated by the SDK on every request, and
   * its validator short-cuts objects it has already seen in the same parse. Bounded by schema text (a proxied
   * remote may list new schemas at each `list_changed`): one forgotten is only shared no more with tools added later.
   */
  private readonly schemas = new LRUCache<string, JsonSchema>({ maxSize: INTERNED_SCHEMA_BYTES, sizeCalculation: (_schema, key) => Math.max(1, key.length) });
  private readonly intern = (schema: JsonSchema): JsonSchema => {
    const key = JSON.stringify(schema);
    const known = this.schemas.get(key);
    if (known) return known;
    this.schemas.set(key, schema);
    return schema;
  };

  constructor(
    private readonly compiler: SchemaCompiler,
    private readonly policy: CallPolicy,
    private readonly services: PipelineServices,
    private readonly filter: TagFilter = {},
    pageSize?: number,
    private readonly settings: ToolRegistrySettings = {},
  ) {
    super('tool', (tool) => tool.descriptor, pageSize);
  }

  /** The names only the server's own tools may have (`search_tools`, `call_tool` with `toolSearch`). */
  get reserved(): ReadonlySet<string> {
    return this.settings.reserved ?? NONE;
  }

  /** Builds the tools of `records` without adding them (a failure leaves the registry as it was). */
  stage(records: readonly ComponentRecord<ToolOptions>[]): ToolDefinition[] {
    const staged: ToolDefinition[] = [];
    const names = new Map<string, ToolDefinition>();
    for (const record of records) {
      const { host, method, options } = record;
      const name = options.name ?? method;
      if (!TOOL_NAME_PATTERN.test(name)) {
        throw new BootstrapError(BootstrapErrorCode.InvalidToolName, invalidToolNameMessage(name, host.target.name, method));
      }
      if (this.reserved.has(name)) {
        throw new BootstrapError(
          BootstrapErrorCode.DuplicateToolName,
          `Cannot register tool '${name}' (${host.target.name}.${method}): McpModule.forRoot({ toolSearch }) serves a tool of that name.\n` +
            `Fix: name the tool otherwise, e.g. @Tool({ name: '${name}_2' }), or transform its name (docs/composition.md#transforms).`,
        );
      }
      const existing = this.find(name) ?? names.get(name);
      if (existing) {
        throw new BootstrapError(
          BootstrapErrorCode.DuplicateToolName,
          duplicateToolNameMessage(name, `${existing.className}.${existing.methodName}`, `${host.target.name}.${method}`),
        );
      }
      const refs = this.settings.schemaRefs === 'keep' ? 'keep' : (this.settings.schemaRefs?.recursionDepth ?? DEFAULT_RECURSION_DEPTH);
      const tool = buildTool(record, { compiler: this.compiler, policy: this.policy, services: this.services, intern: this.intern, refs });
      if (!passesTags(options.tags, this.filter)) continue;
      staged.push(tool);
      names.set(name, tool);
    }
    return staged;
  }
}
