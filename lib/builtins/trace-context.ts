import { ErrorCode, McpReflectError } from '../errors';
import { openTelemetryMissingMessage } from './builtins.messages';
import { loadPeer } from '../runtime/peer';

/**
 * The few shapes of `@opentelemetry/api` this library uses, declared here so that mcp-reflect's public types
 * never name the package (it is an optional peer dependency). A real OpenTelemetry `Tracer` fits `TracerLike`.
 */
export interface SpanLike {
  setAttribute(key: string, value: string | number | boolean): unknown;
  setStatus(status: { code: number; message?: string }): unknown;
  recordException(exception: any): void;
  end(): void;
}

/** What {@link OpenTelemetryInterceptor} needs of a tracer: an OpenTelemetry `Tracer` is one. */
export interface TracerLike {
  startSpan(name: string, options?: any, context?: any): SpanLike;
}

/** A histogram, as {@link OpenTelemetryInterceptor} records into it: an OpenTelemetry `Histogram` is one. */
export interface HistogramLike {
  record(value: number, attributes?: Record<string, string>): void;
}

/** What {@link OpenTelemetryInterceptor} needs of a meter: an OpenTelemetry `Meter` is one. */
export interface MeterLike {
  createHistogram(name: string, options?: { description?: string; unit?: string; advice?: { explicitBucketBoundaries?: number[] } }): HistogramLike;
}

/** `@opentelemetry/api` as loaded at run time (only what is used). */
export interface OtelApi {
  trace: {
    getTracer(name: string, version?: string): TracerLike;
    setSpan(context: unknown, span: SpanLike): unknown;
    setSpanContext(context: unknown, spanContext: RemoteSpanContext & { traceState?: unknown }): unknown;
    getSpanContext(context: unknown): { traceId: string; spanId: string } | undefined;
    isSpanContextValid(spanContext: unknown): boolean;
  };
  metrics: {
    getMeter(name: string, version?: string): MeterLike;
  };
  context: {
    active(): unknown;
    with<T>(context: unknown, fn: () => T): T;
  };
  createTraceState?(raw?: string): unknown;
}

/** The caller's span, from a W3C `traceparent`. */
export interface RemoteSpanContext {
  readonly traceId: string;
  readonly spanId: string;
  readonly traceFlags: number;
  readonly isRemote: true;
}

/** OpenTelemetry's numbers for span kinds and statuses (stable since 1.0). */
export const SPAN_KIND_SERVER = 1;
export const STATUS_ERROR = 2;

/**
 * Loads `@opentelemetry/api` on first use, so that mcp-reflect loads without it; says how to install it
 * when it is missing.
 */
export function loadOpenTelemetry(): OtelApi {
  try {
    return loadPeer<OtelApi>('@opentelemetry/api', { feature: 'OpenTelemetryInterceptor' });
  } catch (error) {
    if ((error as { code?: unknown }).code !== ErrorCode.OptionalDependencyMissing) throw error;
    throw new McpReflectError(ErrorCode.OptionalDependencyMissing, openTelemetryMissingMessage(), { cause: error });
  }
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

/**
 * The caller's span from a W3C `traceparent` (https://www.w3.org/TR/trace-context/#traceparent-header):
 * `version-traceid-parentid-flags`, lower-case hex. Version `ff`, all-zero ids, and version 00 with extra
 * fields are invalid (undefined); later versions may append fields, which are ignored.
 */
export function parseTraceparent(value: unknown): RemoteSpanContext | undefined {
  if (typeof value !== 'string' || value.length > 512) return undefined;
  const match = TRACEPARENT.exec(value.trim());
  if (!match) return undefined;
  const [, version, traceId, spanId, flags, rest] = match;
  if (version === 'ff' || (version === '00' && rest !== undefined)) return undefined;
  if (/^0+$/.test(traceId) || /^0+$/.test(spanId)) return undefined;
  return { traceId, spanId, traceFlags: parseInt(flags, 16), isRemote: true };
}
