import 'reflect-metadata';
import { AsyncLocalStorage } from 'node:async_hooks';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Context as OtelContext, type ContextManager } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import {
  Injectable,
  McpFactory,
  McpModule,
  Module,
  OpenTelemetryInterceptor,
  Param,
  ResourceTemplate,
  Tool,
  ToolResult,
  text,
  type McpModuleOptions,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

/** A context manager on AsyncLocalStorage (what @opentelemetry/context-async-hooks provides), so spans nest. */
class StorageContextManager implements ContextManager {
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

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('spec');

@Injectable()
class Calculator {
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

  @ResourceTemplate('calc://constant/{name}')
  constant(@Param() name: string): string {
    return name === 'pi' ? '3.14159' : 'unknown';
  }
}

function appWith(options: Partial<McpModuleOptions>) {
  @Module({ imports: [McpModule.forRoot({ name: 'traced', version: '1.0.0', logger: { error() {}, warn() {} }, ...options })], providers: [Calculator] })
  class TracedModule {}
  return TracedModule;
}

const traceId = '0af7651916cd43dd8448eb211c80319c';
const callerSpanId = 'b7ad6b7169203331';
const traceparent = `00-${traceId}-${callerSpanId}-01`;

const named = (name: string): ReadableSpan => {
  const found = exporter.getFinishedSpans().filter((s) => s.name === name);
  expect(found).toHaveLength(1);
  return found[0];
};

beforeAll(() => {
  context.setGlobalContextManager(new StorageContextManager());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
});
beforeEach(() => exporter.reset());

describe('OpenTelemetryInterceptor as an interceptor', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(appWith({ interceptors: [new OpenTelemetryInterceptor({ tracer })] }));
  });
  afterAll(() => client.close());

  it("continues the caller's trace from _meta.traceparent, and spans the method starts nest under it", async () => {
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent, tracestate: 'vendor=opaque' } });
    const server = named('tools/call add');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext).toMatchObject({ traceId, spanId: callerSpanId, isRemote: true });
    expect(server.spanContext().traceState?.serialize()).toBe('vendor=opaque');
    expect(server.attributes).toEqual({ 'mcp.method.name': 'tools/call', 'mcp.component.kind': 'tool', 'mcp.component.name': 'add', 'mcp.outcome': 'ok' });
    expect(server.status.code).toBe(SpanStatusCode.UNSET);
    expect(server.instrumentationScope.name).toBe('spec');

    const child = named('compute');
    expect(child.spanContext().traceId).toBe(traceId);
    expect(child.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
    expect(exporter.getFinishedSpans().map((s) => s.name)).toEqual(['compute', 'tools/call add']);
  });

  it('starts a new trace without a traceparent', async () => {
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    const server = named('tools/call add');
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.spanContext().traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(server.spanContext().traceId).not.toBe(traceId);
  });

  it.each([
    ['version ff', `ff-${traceId}-${callerSpanId}-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${callerSpanId}-01`],
    ['an all-zero span id', `00-${traceId}-${'0'.repeat(16)}-01`],
    ['upper-case hex', `00-${traceId.toUpperCase()}-${callerSpanId}-01`],
    ['a short trace id', `00-${traceId.slice(1)}-${callerSpanId}-01`],
    ['version 00 with extra fields', `${traceparent}-extra`],
    ['not a string', 42],
  ])('ignores a traceparent with %s', async (_what, value) => {
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: value } });
    const server = named('tools/call add');
    expect(server.parentSpanContext).toBeUndefined();
    expect(server.spanContext().traceId).not.toBe(traceId);
  });

  it('accepts a later version with extra fields', async () => {
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent: `01-${traceId}-${callerSpanId}-01-later` } });
    expect(named('tools/call add').parentSpanContext?.spanId).toBe(callerSpanId);
  });

  it('marks a thrown error: status ERROR, the exception recorded, error.type', async () => {
    await client.callTool({ name: 'crash', arguments: {}, _meta: { traceparent } });
    const server = named('tools/call crash');
    expect(server.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(server.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' });
    expect(server.attributes).toMatchObject({ 'error.type': 'Error', 'mcp.outcome': 'error' });
    expect(server.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([['exception', 'disk full']]);
  });

  it('marks an isError tool result and invalid arguments', async () => {
    await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
    expect(named('tools/call divide')).toMatchObject({
      status: { code: SpanStatusCode.ERROR },
      attributes: expect.objectContaining({ 'error.type': 'tool_error', 'mcp.outcome': 'error' }),
    });
    exporter.reset();
    await client.callTool({ name: 'divide', arguments: { a: 1 } });
    expect(named('tools/call divide')).toMatchObject({
      status: { code: SpanStatusCode.ERROR },
      attributes: expect.objectContaining({ 'error.type': 'InvalidArgumentsError', 'mcp.outcome': 'invalid' }),
    });
  });

  it('names resource template reads by template', async () => {
    await client.readResource({ uri: 'calc://constant/pi', _meta: { traceparent } });
    const server = named('resources/read constant');
    expect(server.attributes).toEqual({
      'mcp.method.name': 'resources/read',
      'mcp.component.kind': 'resource-template',
      'mcp.component.name': 'constant',
      'mcp.outcome': 'ok',
    });
    expect(server.parentSpanContext?.spanId).toBe(callerSpanId);
  });
});

describe('OpenTelemetryInterceptor as middleware', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(appWith({ middleware: [new OpenTelemetryInterceptor({ tracer })] }));
  });
  afterAll(() => client.close());

  it('traces lists and requests, each continuing its caller’s trace', async () => {
    await client.listTools({ _meta: { traceparent } });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent } });
    await client.readResource({ uri: 'calc://constant/pi', _meta: { traceparent } });
    await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 });

    const list = named('tools/list');
    expect(list.attributes).toEqual({ 'mcp.method.name': 'tools/list', 'mcp.outcome': 'ok' });
    expect(list.parentSpanContext?.spanId).toBe(callerSpanId);

    const call = named('tools/call add');
    expect(call.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(named('compute').parentSpanContext?.spanId).toBe(call.spanContext().spanId);

    // URIs stay out of span names (unbounded cardinality): they are an attribute.
    const read = named('resources/read');
    expect(read.attributes).toEqual({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'calc://constant/pi', 'mcp.outcome': 'ok' });

    expect(named('tools/call missing')).toMatchObject({
      status: { code: SpanStatusCode.ERROR, message: 'Unknown tool: missing' },
      attributes: expect.objectContaining({ 'mcp.outcome': 'denied', 'error.type': 'ProtocolError' }),
    });
  });
});

describe('OpenTelemetryInterceptor with the global tracer provider, over HTTP', () => {
  afterAll(() => trace.disable());

  it('takes the tracer named tracerName, and records the session id', async () => {
    trace.setGlobalTracerProvider(provider);
    const app = await McpFactory.create(appWith({ interceptors: [new OpenTelemetryInterceptor({ tracerName: 'weather-server' })] }));
    try {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const transport = new StreamableHTTPClientTransport(new URL(await app.getUrl()));
      const client = new Client({ name: 'otel-http', version: '1.0.0' });
      await client.connect(transport);
      await client.callTool({ name: 'add', arguments: { a: 2, b: 2 }, _meta: { traceparent } });
      await client.close();
      const server = named('tools/call add');
      expect(server.instrumentationScope.name).toBe('weather-server');
      expect(server.attributes['mcp.session.id']).toBe(transport.sessionId);
      expect(server.parentSpanContext?.spanId).toBe(callerSpanId);
    } finally {
      await app.close();
    }
  });
});

describe('OpenTelemetryInterceptor without @opentelemetry/api', () => {
  it('leaves mcp-reflect loadable and says how to install the package when created', () => {
    const root = path.resolve(__dirname, '..', '..', '..');
    // A process in which '@opentelemetry/api' cannot be resolved, as in a project that did not install it.
    const script = `
      const Module = require('node:module');
      const resolve = Module._resolveFilename;
      Module._resolveFilename = function (request, ...rest) {
        if (request === '@opentelemetry/api') throw Object.assign(new Error("Cannot find module '@opentelemetry/api'"), { code: 'MODULE_NOT_FOUND' });
        return resolve.call(this, request, ...rest);
      };
      const lib = require('mcp-reflect');
      try {
        new lib.OpenTelemetryInterceptor();
        console.log('created');
      } catch (e) {
        console.log(JSON.stringify({ base: e instanceof lib.McpReflectError, name: e.name, code: e.code, message: e.message }));
      }`;
    const output = execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', script], { cwd: root, encoding: 'utf8' });
    expect(JSON.parse(output.trim())).toEqual({
      base: true,
      name: 'McpReflectError',
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message:
        "Cannot create OpenTelemetryInterceptor: the package '@opentelemetry/api' is not installed (it is an optional peer dependency of mcp-reflect).\n" +
        'Fix: npm install @opentelemetry/api, and register a tracer provider (e.g. @opentelemetry/sdk-node) to export the spans.',
    });
  });
});
