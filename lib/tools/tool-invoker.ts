import { InputRequiredSignal, type RequestChannel } from '../context';
import { ToolError } from '../errors';
import { runMethod, type CallPolicy, type MethodOutcome, type ServerLogger } from '../invocation';
import type { CallOutcome, Conversion } from './result-converter';
import type { ToolDefinition } from './tool-definition';

export type { ServerLogger };

/** How tool failures are reported (see CallPolicy). */
export type InvokerOptions = CallPolicy;

/**
 * The per-call path: validate (compiled), bind, invoke, convert. Every failure the client or the tool can
 * cause becomes an `isError` result; only protocol errors propagate, to be sent as JSON-RPC errors.
 */
export class ToolInvoker {
  constructor(private readonly options: InvokerOptions) {}

  /**
   * `open` gives the request's channel; it is only opened for tools that need it (Context, timeout). Tools
   * of singleton classes without a Context, timeout or class-validator rules, called with valid arguments,
   * take a synchronous path that allocates nothing of its own: the result is a promise only when the method
   * returns one.
   */
  call(tool: ToolDefinition, rawArgs: unknown, open?: () => RequestChannel): CallOutcome | Promise<CallOutcome> {
    if (!tool.direct) return this.callChecked(tool, rawArgs, open);
    const args = tool.validator.accept(rawArgs);
    if (args === undefined) return this.callChecked(tool, rawArgs, open); // to coerce, or to name the issues
    let value: unknown;
    try {
      value = tool.method.apply(tool.instance, tool.bind(args, undefined));
    } catch (error) {
      return this.failure(tool, error);
    }
    if (isPromiseLike(value)) {
      return Promise.resolve(value).then(
        (resolved) => this.converted(tool, resolved),
        (error: unknown) => this.failure(tool, error),
      );
    }
    return this.converted(tool, value);
  }

  private async callChecked(tool: ToolDefinition, rawArgs: unknown, open?: () => RequestChannel): Promise<CallOutcome> {
    let outcome: MethodOutcome;
    try {
      if (tool.timeout !== undefined) outcome = await this.withTimeout(tool, rawArgs, open!());
      else outcome = await runMethod(tool, rawArgs, tool.needsContext ? open!() : undefined);
      if (!outcome.ok) return errorResult(`Invalid arguments for tool ${tool.name}: ${outcome.issues.join('; ')}`);
    } catch (error) {
      if (error instanceof TimedOut) return errorResult(error.message);
      return this.failure(tool, error);
    }
    return this.converted(tool, outcome.value);
  }

  /** What the method returned, as a result (or an isError result when it breaks the output schema). */
  private converted(tool: ToolDefinition, value: unknown): CallOutcome {
    let converted: Conversion;
    try {
      converted = tool.convertResult(value);
    } catch (error) {
      return this.failure(tool, error);
    }
    if (converted.ok) return converted.outcome;
    const detail = converted.issues.join('; ');
    this.options.logger.error(`Tool '${tool.name}' (${tool.className}.${tool.methodName}) returned output that does not match its output schema: ${detail}`);
    return errorResult(`Tool '${tool.name}' returned output that does not match its output schema: ${detail}`);
  }

  /**
   * `@Tool({ timeout })`: at the deadline the Context's signal aborts and the caller gets its answer at once,
   * whether or not the method listens to the signal (its late result is dropped).
   */
  private withTimeout(tool: ToolDefinition, rawArgs: unknown, channel: RequestChannel): Promise<MethodOutcome> {
    const ms = tool.timeout!;
    const deadline = new AbortController();
    const timed: RequestChannel = Object.create(channel, {
      signal: { value: AbortSignal.any([channel.signal, deadline.signal]) },
    });
    return new Promise<MethodOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        deadline.abort(new TimedOut(tool.name, ms));
        reject(new TimedOut(tool.name, ms));
      }, ms);
      runMethod(tool, rawArgs, timed).then(
        (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        },
        (error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  private failure(tool: ToolDefinition, error: unknown): CallOutcome {
    if (error instanceof InputRequiredSignal) throw error; // answered by the protocol layer (input required)
    if (error instanceof ToolError) return errorResult(error.message);
    if (this.options.isProtocolError(error)) throw error;
    this.options.logger.error(`Tool '${tool.name}' (${tool.className}.${tool.methodName}) threw:`, error);
    if (this.options.maskErrorDetails) return errorResult(`Error calling tool '${tool.name}'`);
    const message = error instanceof Error ? error.message : String(error);
    return errorResult(`Error calling tool '${tool.name}': ${message}`);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function errorResult(text: string): CallOutcome {
  return { content: [{ type: 'text', text }], isError: true };
}

/** The deadline of `@Tool({ timeout })` passed; also the reason the Context's signal carries. */
class TimedOut extends Error {
  constructor(tool: string, ms: number) {
    super(`Tool '${tool}' timed out after ${ms} ms`);
    this.name = 'TimeoutError';
  }
}
