import type { JsonSchema, ToolAnnotations, ToolIcon } from '../interfaces';
import type { CompiledMethod } from '../invocation';
import type { Conversion } from './result-converter';

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
}

/**
 * Everything needed to call one tool, compiled at bootstrap: the per-call path only looks things up and runs
 * these functions.
 */
export interface ToolDefinition extends CompiledMethod {
  readonly name: string;
  readonly descriptor: ToolDescriptor;
  /** Milliseconds a call may take (`@Tool({ timeout })`). */
  readonly timeout?: number;
  readonly convertResult: (value: unknown) => Conversion;
  /** Callable on the synchronous path: a singleton's method without Context, timeout or class-validator rules. */
  readonly direct: boolean;
}
