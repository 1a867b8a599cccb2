import type {
  CallHandler,
  ExecutionContext,
  McpComponentKind,
  McpInterceptor,
  McpMethod,
  McpMiddleware,
  MiddlewareContext,
  NextMiddleware,
} from '../interfaces';
import { checkNumber } from './caller-key';
import { errorName, isErrorResult, outcomeOfAnswer, outcomeOfError, targetOf, type RequestOutcome } from './request-outcome';

/** One line of the timing log: one per request. */
export interface TimingEntry {
  readonly method: McpMethod;
  /** The kind of component served (absent for lists, and for `resources/read` seen from a middleware). */
  readonly kind?: McpComponentKind;
  /** The component's name (for `resources/read` seen from a middleware: the URI). */
  readonly name?: string;
  /** Wall time from entering the interceptor (or middleware) to the answer, in milliseconds. */
  readonly durationMs: number;
  readonly outcome: RequestOutcome;
  /** The transport session, when there is one (HTTP). */
  readonly sessionId?: string;
  /** The class name of the error the request failed with (never its message). */
  readonly error?: string;
  /** Only with `logArguments: true`: the arguments as sent (a cut JSON string when longer than `maxArgumentChars`). */
  readonly arguments?: unknown;
}

/** What a line says of the request, besides its timing and outcome. */
interface LoggedRequest {
  readonly method: McpMethod;
  readonly kind: McpComponentKind | undefined;
  readonly name: string | undefined;
  readonly sessionId: string | undefined;
}

/** Options of {@link TimingInterceptor}. */
export interface TimingOptions {
  /** Add the request's arguments to each line (default false: argument values may be personal data or secrets). */
  logArguments?: boolean;
  /** With `logArguments`: arguments whose JSON is longer are logged as that JSON cut to this length (default 2000). */
  maxArgumentChars?: number;
  /** Where lines go (default: one JSON line to stderr via `console.error`; never stdout, which stdio uses for the protocol). */
  sink?: (entry: TimingEntry) => void;
}

/**
 * Logs one structured line per request: method, kind, name, duration, outcome and session; argument values
 * only when asked for. As an interceptor it times component calls (tools, resources, templates, prompts,
 * completions); registered as middleware it times every request, lists included. Register it in one of the
 * two places, not both, or each call is logged twice.
 *
 * @example
 * McpModule.forRoot({ name: 'weather', version: '1.0.0', middleware: [new TimingInterceptor()] })
 * // stderr: {"method":"tools/call","kind":"tool","name":"forecast","durationMs":12.5,"outcome":"ok"}
 */
export class TimingInterceptor implements McpInterceptor, McpMiddleware {
  private readonly logArguments: boolean;
  private readonly maxArgumentChars: number;
  private readonly sink: (entry: TimingEntry) => void;

  constructor(options: TimingOptions = {}) {
    this.logArguments = options.logArguments ?? false;
    const example = '{ logArguments: true, maxArgumentChars: 2000 }';
    this.maxArgumentChars = checkNumber('TimingInterceptor', 'maxArgumentChars', options.maxArgumentChars ?? 2000, { min: 0, integer: true }, example);
    this.sink = options.sink ?? ((entry) => console.error(JSON.stringify(entry)));
  }

  async intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const started = performance.now();
    let outcome: RequestOutcome = 'ok';
    let error: string | undefined;
    try {
      const value = await next.handle();
      if (context.kind === 'tool' && isErrorResult(value)) outcome = 'error';
      return value;
    } catch (thrown) {
      outcome = outcomeOfError(thrown, context.context.signal);
      error = errorName(thrown);
      throw thrown;
    } finally {
      const { method, kind, name, sessionId } = context;
      this.emit({ method, kind, name, sessionId }, started, outcome, error, () => context.switchToRpc().getData());
    }
  }

  async onRequest(context: MiddlewareContext, next: NextMiddleware): Promise<unknown> {
    const started = performance.now();
    const target = targetOf(context.method, context.params);
    let outcome: RequestOutcome = 'ok';
    let error: string | undefined;
    try {
      const answer = await next();
      outcome = outcomeOfAnswer(context.method, answer);
      return answer;
    } catch (thrown) {
      outcome = outcomeOfError(thrown, context.context.signal);
      error = errorName(thrown);
      throw thrown;
    } finally {
      const request = { method: context.method, kind: target.kind, name: target.name ?? target.uri, sessionId: context.context.sessionId };
      this.emit(request, started, outcome, error, () => target.args);
    }
  }

  private emit(request: LoggedRequest, started: number, outcome: RequestOutcome, error: string | undefined, args: () => unknown): void {
    const { method, kind, name, sessionId } = request;
    const entry: Record<string, unknown> = { method };
    if (kind !== undefined) entry.kind = kind;
    if (name !== undefined) entry.name = name;
    entry.durationMs = Math.round((performance.now() - started) * 1000) / 1000;
    entry.outcome = outcome;
    if (sessionId !== undefined) entry.sessionId = sessionId;
    if (error !== undefined) entry.error = error;
    if (this.logArguments) entry.arguments = this.bounded(args());
    try {
      this.sink(entry as unknown as TimingEntry);
    } catch (failure) {
      // A broken sink must not fail the request it was logging.
      console.error('TimingInterceptor: the sink threw while logging a request:', failure);
    }
  }

  private bounded(args: unknown): unknown {
    let json: string | undefined;
    try {
      json = JSON.stringify(args);
    } catch {
      return '[arguments that are not JSON]';
    }
    if (json === undefined || json.length <= this.maxArgumentChars) return args;
    return `${json.slice(0, this.maxArgumentChars)}…`;
  }
}
