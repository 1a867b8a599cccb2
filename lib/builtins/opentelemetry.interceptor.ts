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
import { errorName, isErrorResult, outcomeOfAnswer, outcomeOfError, targetOf, type RequestOutcome } from './request-outcome';
import { loadOpenTelemetry, parseTraceparent, SPAN_KIND_SERVER, STATUS_ERROR, type OtelApi, type SpanLike, type TracerLike } from './trace-context';

/** Options of {@link OpenTelemetryInterceptor}. */
export interface OpenTelemetryOptions {
  /** The name of the tracer taken from the global tracer provider (default 'mcp-reflect'). */
  tracerName?: string;
  /** A tracer to use instead of the global provider's (an OpenTelemetry `Tracer`). */
  tracer?: TracerLike;
}

/** What a span describes: the request, the component, the caller's trace context. */
interface SpanTarget {
  readonly method: McpMethod;
  readonly kind?: McpComponentKind;
  readonly name?: string;
  readonly uri?: string;
  readonly sessionId?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
}

/**
 * One OpenTelemetry span per MCP request, named `tools/call add` (method and component), of kind SERVER,
 * with `mcp.method.name`, `mcp.component.kind`, `mcp.component.name` and `mcp.session.id`. A W3C
 * `traceparent` (and `tracestate`) in the request's `_meta` makes the span a child of the caller's span; the
 * method runs inside the span's context, so spans it starts nest under it. Failures set the status to ERROR,
 * with the exception recorded and `error.type`. As an interceptor it traces component calls; registered as
 * middleware, every request, lists included (use one of the two). Needs the optional peer dependency
 * `@opentelemetry/api`, loaded when the interceptor is created.
 *
 * @example
 * McpModule.forRoot({ name: 'weather', version: '1.0.0', interceptors: [new OpenTelemetryInterceptor()] })
 */
export class OpenTelemetryInterceptor implements McpInterceptor, McpMiddleware {
  private readonly api: OtelApi;
  private readonly tracer: TracerLike;

  constructor(options: OpenTelemetryOptions = {}) {
    this.api = loadOpenTelemetry();
    this.tracer = options.tracer ?? this.api.trace.getTracer(options.tracerName ?? 'mcp-reflect');
  }

  intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const target: SpanTarget = {
      method: context.method,
      kind: context.kind,
      name: context.name,
      sessionId: context.sessionId,
      meta: context.context.meta,
      signal: context.context.signal,
    };
    return this.traced(target, () => next.handle(), (value) => (context.kind === 'tool' && isErrorResult(value) ? 'error' : 'ok'));
  }

  onRequest(context: MiddlewareContext, next: NextMiddleware): Promise<unknown> {
    const { kind, name, uri } = targetOf(context.method, context.params);
    const ctx = context.context;
    const target: SpanTarget = { method: context.method, kind, name, uri, sessionId: ctx.sessionId, meta: ctx.meta, signal: ctx.signal };
    return this.traced(target, () => next(), (answer) => outcomeOfAnswer(context.method, answer));
  }

  private traced(target: SpanTarget, run: () => Promise<unknown>, outcomeOf: (value: unknown) => RequestOutcome): Promise<unknown> {
    const { api } = this;
    const parent = this.parentContext(target.meta);
    const attributes: Record<string, string> = { 'mcp.method.name': target.method };
    if (target.kind !== undefined) attributes['mcp.component.kind'] = target.kind;
    if (target.name !== undefined) attributes['mcp.component.name'] = target.name;
    if (target.uri !== undefined) attributes['mcp.resource.uri'] = target.uri;
    if (target.sessionId !== undefined) attributes['mcp.session.id'] = target.sessionId;
    // URIs are left out of the name: span names must stay low-cardinality.
    const spanName = target.name !== undefined ? `${target.method} ${target.name}` : target.method;
    const span = this.tracer.startSpan(spanName, { kind: SPAN_KIND_SERVER, attributes }, parent);
    return api.context.with(api.trace.setSpan(parent, span), async () => {
      try {
        const value = await run();
        const outcome = outcomeOf(value);
        span.setAttribute('mcp.outcome', outcome);
        if (outcome !== 'ok') failed(span, outcome === 'invalid' ? 'invalid_arguments' : 'tool_error', 'The tool answered with an error result.');
        return value;
      } catch (error) {
        span.setAttribute('mcp.outcome', outcomeOfError(error, target.signal));
        span.recordException(error instanceof Error ? error : String(error));
        failed(span, errorName(error), error instanceof Error ? error.message : String(error));
        throw error;
      } finally {
        span.end();
      }
    });
  }

  /** The active context, with the caller's span from `_meta.traceparent` (and `tracestate`) when valid. */
  private parentContext(meta: Readonly<Record<string, unknown>> | undefined): unknown {
    const { api } = this;
    const active = api.context.active();
    const remote = parseTraceparent(meta?.traceparent);
    if (!remote) return active;
    const raw = meta?.tracestate;
    const traceState = typeof raw === 'string' && raw.length <= 512 && api.createTraceState ? api.createTraceState(raw) : undefined;
    return api.trace.setSpanContext(active, traceState === undefined ? remote : { ...remote, traceState });
  }
}

function failed(span: SpanLike, type: string, message: string): void {
  span.setAttribute('error.type', type);
  span.setStatus({ code: STATUS_ERROR, message });
}
