import type { Context } from '../context';
import type { JsonSchema, ToolAnnotations, ToolIcon } from '../interfaces';
import type { ArgumentValidator } from '../validation';
import type { Conversion } from './result-converter';
import type { ScopedHost } from './tool-registry';

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
export interface ToolDefinition {
  readonly name: string;
  readonly descriptor: ToolDescriptor;
  readonly className: string;
  readonly methodName: string;
  /** The instance serving every call, for singleton classes. */
  readonly instance?: object;
  /** For request-scoped classes: this request's instance and its scope. */
  readonly scoped?: ScopedHost;
  readonly method: (...args: unknown[]) => unknown;
  readonly validator: ArgumentValidator;
  /** Builds the method's argument list from validated arguments and, when asked for, the Context. */
  readonly bind: (validated: Record<string, unknown>, context: Context | undefined) => unknown[];
  readonly needsContext: boolean;
  /** DTO instances in the argument list that class-validator must still check (rules JSON Schema cannot say). */
  readonly runtimeChecked: readonly number[];
  readonly convertResult: (value: unknown) => Conversion;
}
