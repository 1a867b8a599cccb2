import type {
  CallHandler,
  ExecutionContext,
  McpComponentKind,
  McpInterceptor,
  McpMiddleware,
  McpSessionEnd,
  McpSessionObserver,
  MiddlewareContext,
  NextMiddleware,
} from '../interfaces';
import {
  DURATION_BUCKETS,
  failureOf,
  metricAttributesOf,
  OPERATION_DURATION,
  SESSION_DURATION,
  sessionAttributesOf,
  spanAttributesOf,
  spanNameOf,
  TOOL_ERROR,
  type FailureType,
  type RequestFacts,
} from './mcp-semconv';
import { isErrorResult, outcomeOfAnswer, outcomeOfError, targetOf, type RequestOutcome } from './request-outcome';
import {
  loadOpenTelemetry,
  parseTraceparent,
  SPAN_KIND_SERVER,
  STATUS_ERROR,
  type HistogramLike,
  type MeterLike,
  type OtelApi,
  type SpanLike,
  type TracerLike,
} from './trace-context';

/** Options of {@link OpenTelemetryInterceptor}. */
export interface OpenTelemetryOptions {
  /** The name of the tracer and the meter taken from the global providers (default 'mcp-reflect'). */
  tracerName?: string;
  /** A tracer to use instead of the global provider's (an OpenTelemetry `Tracer`). */
  tracer?: TracerLike;
  /** A meter to use instead of the global provider's (an OpenTelemetry `Meter`). */
  meter?: MeterLike;
  /**
   * Also record the attributes this interceptor used before it followed OpenTelemetry's MCP conventions, for
   * existing dashboards: `mcp.component.kind`, `mcp.component.name` and `mcp.outcome` (default false).
   */
  legacyAttributes?: boolean;
}

/** What one span describes: the request, in the convention's terms, and what today's attributes need. */
interface Traced {
  readonly facts: RequestFacts;
  readonly kind?: McpComponentKind;
  readonly name?: string;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly signal: AbortSignal;
}

/** The histograms, made on first use (so that a meter provider registered after the interceptor is created is used). */
interface Instruments {
  readonly operation: HistogramLike;
  readonly session: HistogramLike;
}

/**
 * Traces and measures MCP requests as OpenTelemetry's semantic conventions for MCP say (GenAI semantic
 * conventions, docs/gen-ai/mcp.md): one span of kind SERVER per request, named `{mcp.method.name} {target}`
 * (`tools/call add`, `prompts/get greet`, `resources/read`), with `mcp.method.name`, `mcp.protocol.version`,
 * `mcp.session.id`, `jsonrpc.request.id`, `gen_ai.operation.name` (`execute_tool`), `gen_ai.tool.name`,
 * `gen_ai.prompt.name`, `mcp.resource.uri`, `network.transport` (`pipe` on stdio, `tcp` over HTTP) and, when it
 * fails, `error.type` (`tool_error` for an `isError` result, the JSON-RPC code, else the exception's class) with
 * the status ERROR; and the histograms `mcp.server.operation.duration` and `mcp.server.session.duration`
 * (seconds, the convention's buckets). A W3C `traceparent` (and `tracestate`) in the request's `_meta` makes
 * the span a child of the caller's span (the active span, an HTTP server span say, is linked); the method runs
 * inside the span's context, so spans it starts nest under it.
 *
 * As an interceptor it traces component calls; registered as middleware, every request, lists and
 * `resources/read` URIs included (use one of the two). Sessions are measured when it is given as an instance.
 * Needs the optional peer dependency `@opentelemetry/api`, loaded when the interceptor is created.
 *
 * @example
 * McpModule.forRoot({ name: 'weather', version: '1.0.0', middleware: [new OpenTelemetryInterceptor()] })
 */
export class OpenTelemetryInterceptor implements McpInterceptor, McpMiddleware, McpSessionObserver {
  private readonly api: OtelApi;
  private readonly tracer: TracerLike;
  private readonly legacy: boolean;
  private instruments?: Instruments;

  constructor(private readonly options: OpenTelemetryOptions = {}) {
    this.api = loadOpenTelemetry();
    this.tracer = options.tracer ?? this.api.trace.getTracer(options.tracerName ?? 'mcp-reflect');
    this.legacy = options.legacyAttributes === true;
  }

  intercept(context: ExecutionContext, next: CallHandler): Promise<unknown> {
    const ctx = context.context;
    const traced: Traced = {
      facts: this.factsOf(context.method, ctx, context.kind === 'tool' ? { toolName: context.name } : context.kind === 'prompt' ? { promptName: context.name } : {}),
      kind: context.kind,
      name: context.name,
      meta: ctx.meta,
      signal: ctx.signal,
    };
    return this.traced(traced, () => next.handle(), (value) => (context.kind === 'tool' && isErrorResult(value) ? 'error' : 'ok'));
  }

  onRequest(context: MiddlewareContext, next: NextMiddleware): Promise<unknown> {
    const { kind, name, uri } = targetOf(context.method, context.params);
    const ctx = context.context;
    const target = kind === 'tool' ? { toolName: name } : kind === 'prompt' ? { promptName: name } : uri !== undefined ? { uri } : {};
    const traced: Traced = { facts: this.factsOf(context.method, ctx, target), kind, name, meta: ctx.meta, signal: ctx.signal };
    return this.traced(traced, () => next(), (answer) => outcomeOfAnswer(context.method, answer));
  }

  /** Records `mcp.server.session.duration` for a session that ended (a stdio connection, a stateful HTTP session). */
  onSessionEnd(session: McpSessionEnd): void {
    this.measures().session.record(session.durationMs / 1000, sessionAttributesOf(session));
  }

  private factsOf(method: string, ctx: ExecutionContext['context'], target: Partial<RequestFacts>): RequestFacts {
    return {
      method,
      ...target,
      requestId: ctx.requestId,
      ...(ctx.sessionId !== undefined ? { sessionId: ctx.sessionId } : {}),
      ...(ctx.protocolVersion !== undefined ? { protocolVersion: ctx.protocolVersion } : {}),
      ...(ctx.transport !== undefined ? { transport: ctx.transport } : {}),
    };
  }

  private traced(traced: Traced, run: () => Promise<unknown>, outcomeOf: (value: unknown) => RequestOutcome): Promise<unknown> {
    const { api } = this;
    const started = performance.now();
    const { parent, links } = this.parentOf(traced.meta);
    const attributes = spanAttributesOf(traced.facts);
    if (this.legacy) {
      if (traced.kind !== undefined) attributes['mcp.component.kind'] = traced.kind;
      if (traced.name !== undefined) attributes['mcp.component.name'] = traced.name;
    }
    const span = this.tracer.startSpan(spanNameOf(traced.facts), { kind: SPAN_KIND_SERVER, attributes, ...(links ? { links } : {}) }, parent);
    let failure: FailureType | undefined;
    return api.context.with(api.trace.setSpan(parent, span), async () => {
      try {
        const value = await run();
        const outcome = outcomeOf(value);
        if (this.legacy) span.setAttribute('mcp.outcome', outcome);
        if (outcome !== 'ok') failed(span, (failure = { type: TOOL_ERROR }), 'The tool answered with an error result.');
        return value;
      } catch (error) {
        if (this.legacy) span.setAttribute('mcp.outcome', outcomeOfError(error, traced.signal));
        span.recordException(error instanceof Error ? error : String(error));
        failed(span, (failure = failureOf(error, traced.facts.method)), error instanceof Error ? error.message : String(error));
        throw error;
      } finally {
        span.end();
        this.measures().operation.record((performance.now() - started) / 1000, withFailure(metricAttributesOf(traced.facts), failure));
      }
    });
  }

  /**
   * The caller's span from `_meta.traceparent` (and `tracestate`) when valid, as the parent; the active span (an
   * HTTP server span, say) then becomes a link, as the convention asks. Without one, the active context.
   */
  private parentOf(meta: Readonly<Record<string, unknown>> | undefined): { parent: unknown; links?: { context: unknown }[] } {
    const { api } = this;
    const active = api.context.active();
    const remote = parseTraceparent(meta?.traceparent);
    if (!remote) return { parent: active };
    const raw = meta?.tracestate;
    const traceState = typeof raw === 'string' && raw.length <= 512 && api.createTraceState ? api.createTraceState(raw) : undefined;
    const parent = api.trace.setSpanContext(active, traceState === undefined ? remote : { ...remote, traceState });
    const ambient = api.trace.getSpanContext(active);
    return ambient && api.trace.isSpanContextValid(ambient) ? { parent, links: [{ context: ambient }] } : { parent };
  }

  private measures(): Instruments {
    if (this.instruments) return this.instruments;
    const meter = this.options.meter ?? this.api.metrics.getMeter(this.options.tracerName ?? 'mcp-reflect');
    const advice = { explicitBucketBoundaries: [...DURATION_BUCKETS] };
    return (this.instruments = {
      operation: meter.createHistogram(OPERATION_DURATION, {
        description: 'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
        unit: 's',
        advice,
      }),
      session: meter.createHistogram(SESSION_DURATION, { description: 'The duration of the MCP session as observed on the MCP server.', unit: 's', advice }),
    });
  }
}

function failed(span: SpanLike, failure: FailureType, message: string): void {
  span.setAttribute('error.type', failure.type);
  if (failure.rpcCode !== undefined) span.setAttribute('rpc.response.status_code', failure.rpcCode);
  span.setStatus({ code: STATUS_ERROR, message });
}

function withFailure(attributes: Record<string, string>, failure: FailureType | undefined): Record<string, string> {
  if (!failure) return attributes;
  return { ...attributes, 'error.type': failure.type, ...(failure.rpcCode !== undefined ? { 'rpc.response.status_code': failure.rpcCode } : {}) };
}
