import { Context, type RequestChannel } from '../context';
import { ToolError } from '../errors';
import { classValidatorIssues } from '../validation';
import type { CallOutcome, Conversion } from './result-converter';
import type { ToolDefinition } from './tool-definition';

/** Receives the full detail of failures that clients only see masked. Defaults to stderr. */
export interface ServerLogger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
}

export interface InvokerOptions {
  /** Hide the message of unexpected errors from clients (default true). */
  readonly maskErrorDetails: boolean;
  readonly logger: ServerLogger;
  /** Errors that must reach the client as JSON-RPC errors (the SDK's protocol errors); rethrown untouched. */
  readonly isProtocolError: (error: unknown) => boolean;
}

/**
 * The per-call path: validate (compiled), bind, invoke, convert. Every failure the client or the tool can
 * cause becomes an `isError` result; only protocol errors propagate, to be sent as JSON-RPC errors.
 */
export class ToolInvoker {
  constructor(private readonly options: InvokerOptions) {}

  async call(tool: ToolDefinition, rawArgs: unknown, channel: RequestChannel): Promise<CallOutcome> {
    const validation = tool.validator.validate(rawArgs);
    if (!validation.ok) return errorResult(`Invalid arguments for tool ${tool.name}: ${validation.issues.join('; ')}`);

    let converted: Conversion;
    try {
      const context = tool.needsContext ? new Context(channel) : undefined;
      const args = tool.bind(validation.value, context);
      if (tool.runtimeChecked.length > 0) {
        const issues = await this.runtimeIssues(tool, args);
        if (issues.length > 0) return errorResult(`Invalid arguments for tool ${tool.name}: ${issues.join('; ')}`);
      }
      if (tool.scoped) {
        // A request-scoped class: this request's instance, and the call runs inside the request scope.
        const request = tool.scoped(context!);
        const instance = await request.instance;
        converted = tool.convertResult(await request.run(() => tool.method.apply(instance, args)));
      } else {
        converted = tool.convertResult(await tool.method.apply(tool.instance, args));
      }
    } catch (error) {
      return this.failure(tool, error);
    }

    if (converted.ok) return converted.outcome;
    const detail = converted.issues.join('; ');
    this.options.logger.error(`Tool '${tool.name}' (${tool.className}.${tool.methodName}) returned output that does not match its output schema: ${detail}`);
    return errorResult(`Tool '${tool.name}' returned output that does not match its output schema: ${detail}`);
  }

  private async runtimeIssues(tool: ToolDefinition, args: unknown[]): Promise<string[]> {
    const issues: string[] = [];
    for (const index of tool.runtimeChecked) {
      const value = args[index];
      if (typeof value === 'object' && value !== null) issues.push(...(await classValidatorIssues(value)));
    }
    return issues;
  }

  private failure(tool: ToolDefinition, error: unknown): CallOutcome {
    if (error instanceof ToolError) return errorResult(error.message);
    if (this.options.isProtocolError(error)) throw error;
    this.options.logger.error(`Tool '${tool.name}' (${tool.className}.${tool.methodName}) threw:`, error);
    if (this.options.maskErrorDetails) return errorResult(`Error calling tool '${tool.name}'`);
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(`Error calling tool '${tool.name}': ${message}`);
  }
}

function errorResult(text: string): CallOutcome {
  return { content: [{ type: 'text', text }], isError: true };
}
