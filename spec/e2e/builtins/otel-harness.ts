import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import { ROOT_CONTEXT, type Context as OtelContext, type ContextManager } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type DataPoint, type Histogram } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Injectable, McpModule, Module, Param, Prompt, ResourceTemplate, Tool, ToolResult, text, type McpModuleOptions } from 'mcp-reflect';

/** A context manager on AsyncLocalStorage (what @opentelemetry/context-async-hooks provides), so spans nest. */
export class StorageContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<OtelContext>();
  active(): OtelContext {
    return this.storage.getStore() ?? ROOT_CONTEXT;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(ctx: OtelContext, fn: F, thisArg?: ThisParameterType<F>, ...args: A): ReturnType<F> {
    return this.storage.run(ctx, () => fn.apply(thisArg, args));
  }
  bind<T>(_ctx: OtelContext, target: T): T {
    return target;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/** The real SDKs with in-memory exporters: spans as they finish, metrics (delta) when `histogram()` collects them. */
export const exporter = new InMemorySpanExporter();
export const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
export const tracer = provider.getTracer('spec');
const metricExporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
export const meterProvider = new MeterProvider({ readers: [reader] });
export const meter = meterProvider.getMeter('spec');

/** Points collected and not yet asked for, by metric name. */
let collected: { name: string; point: DataPoint<Histogram> }[] = [];

/** Collects what was recorded since the last collection into `collected`. */
async function collect(): Promise<void> {
  await reader.forceFlush();
  for (const resource of metricExporter.getMetrics()) {
    for (const metric of resource.scopeMetrics.flatMap((scope) => scope.metrics)) {
      for (const point of metric.dataPoints) collected.push({ name: metric.descriptor.name, point: point as DataPoint<Histogram> });
    }
  }
  metricExporter.reset();
}

/** The points of a histogram recorded since it was last asked for (each point is handed out once). */
export async function histogram(name: string): Promise<DataPoint<Histogram>[]> {
  await collect();
  const points = collected.filter((entry) => entry.name === name).map((entry) => entry.point);
  collected = collected.filter((entry) => entry.name !== name);
  return points;
}

/** Forgets every span and metric recorded so far. */
export async function resetTelemetry(): Promise<void> {
  exporter.reset();
  await collect();
  collected = [];
}

/** The one finished span named `name`. */
export function named(name: string): ReadableSpan {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name);
  expect(found).toHaveLength(1);
  return found[0];
}

@Injectable()
export class Calculator {
  @Tool()
  add(@Param() a: number, @Param() b: number): number {
    // A span the method starts itself: a child of the request's span.
    const span = tracer.startSpan('compute');
    span.end();
    return a + b;
  }

  @Tool()
  divide(@Param() a: number, @Param() b: number): number | ToolResult {
    if (b === 0) return new ToolResult({ content: [text('Cannot divide by zero: pass another b.')], isError: true });
    return a / b;
  }

  @Tool()
  crash(): number {
    throw new Error('disk full');
  }

  @Tool()
  fetchUpstream(): number {
    // An HTTP client's error with a numeric code: not a JSON-RPC code.
    throw Object.assign(new Error('upstream answered 404'), { code: 404 });
  }

  @Prompt()
  explain(@Param() topic: string): string {
    return `Explain ${topic} in one paragraph.`;
  }

  @ResourceTemplate('calc://constant/{name}')
  constant(@Param() name: string): string {
    return name === 'pi' ? '3.14159' : 'unknown';
  }
}

export function appWith(options: Partial<McpModuleOptions>) {
  @Module({ imports: [McpModule.forRoot({ name: 'traced', version: '1.0.0', logger: { error() {}, warn() {} }, ...options })], providers: [Calculator] })
  class TracedModule {}
  return TracedModule;
}

export const traceId = '0af7651916cd43dd8448eb211c80319c';
export const callerSpanId = 'b7ad6b7169203331';
export const traceparent = `00-${traceId}-${callerSpanId}-01`;

/** The bucket boundaries OpenTelemetry's MCP conventions advise for both histograms. */
export const BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
