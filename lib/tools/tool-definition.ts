import type { JsonSchema, ToolAnnotations, ToolIcon } from '../interfaces';
import type { CompiledMethod } from '../invocation';
import type { Pipeline } from '../pipeline';
import type { TaskSettings } from '../tasks';
import type { CallOutcome } from './result-converter';

/** The tool as `tools/list` shows it. Built once at bootstrap and never changed. */
export interface ToolDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchema;
  readonly outputSchema?: JsonSchema;
  readonly annotations?: ToolAnnotations;
  readonly icons?: ToolIcon[];
  readonly _meta?: Record<string, unknown>;
  /** Task support (`@Tool({ task })`), as spec 2025-11-25 tools advertise it. */
  readonly execution?: { readonly taskSupport: 'optional' | 'required' };
}

/**
 * Everything needed to call one tool, compiled at bootstrap: the per-call path only looks things up and runs
 * its pipeline.
 */
export interface ToolDefinition extends CompiledMethod {
  readonly name: string;
  readonly tags?: readonly string[];
  readonly descriptor: ToolDescriptor;
  readonly pipeline: Pipeline<CallOutcome, undefined>;
  /** How the tool runs as a task (`@Tool({ task })`); undefined: never. */
  readonly task?: TaskSettings;
}
