import { PassThrough } from 'node:stream';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { SpanKind, SpanStatusCode, context, metrics, trace } from '@opentelemetry/api';
import { McpFactory, OpenTelemetryInterceptor } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import {
  BUCKETS,
  StorageContextManager,
  appWith,
  callerSpanId,
  exporter,
  histogram,
  meter,
  meterProvider,
  named,
  provider,
  resetTelemetry,
  traceId,
  traceparent,
  tracer,
} from './otel-harness';

const OPERATION = 'mcp.server.operation.duration';
const SESSION = 'mcp.server.session.duration';

beforeAll(() => {
  context.setGlobalContextManager(new StorageContextManager());
});
afterAll(async () => {
  context.disable();
  await provider.shutdown();
  await meterProvider.shutdown();
});
beforeEach(() => resetTelemetry());

describe('OpenTelemetryInterceptor as an interceptor (in memory)', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(appWith({ interceptors: [new OpenTelemetryInterceptor({ tracer, meter })] }));
  });
  afterAll(() => client.close());

  it("names the span '{mcp.method.name} {tool}', with the convention's attributes, continuing the caller's trace", async () => {
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent, tracestate: 'vendor=opaque' } });
    const server = named('tools/call add');
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(traceId);
    expect(server.parentSpanContext).toMatchObject({ traceId, spanId: callerSpanId, isRemote: true });
    expect(server.spanContext().traceState?.serialize()).toBe('vendor=opaque');
    expect(server.attributes).toEqual({
      'mcp.method.name': 'tools/call',
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'add',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
    });
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

  it("marks a thrown error: status ERROR with its message, the exception recorded, error.type the exception's class", async () => {
    await client.callTool({ name: 'crash', arguments: {}, _meta: { traceparent } });
    const server = named('tools/call crash');
    expect(server.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(server.status).toEqual({ code: SpanStatusCode.ERROR, message: 'disk full' });
    expect(server.attributes['error.type']).toBe('Error');
    expect(server.events.map((e) => [e.name, e.attributes?.['exception.message']])).toEqual([['exception', 'disk full']]);
  });

  it("reports an error's numeric code only when it is a JSON-RPC one (negative): a thrown `code: 404` is its class", async () => {
    await client.callTool({ name: 'fetchUpstream', arguments: {} });
    const server = named('tools/call fetchUpstream');
    expect(server.attributes['error.type']).toBe('Error');
    expect(server.attributes['rpc.response.status_code']).toBeUndefined();
  });

  it("marks an isError result and invalid arguments (answered with an isError result) as 'tool_error'", async () => {
    await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
    expect(named('tools/call divide')).toMatchObject({ status: { code: SpanStatusCode.ERROR }, attributes: expect.objectContaining({ 'error.type': 'tool_error' }) });
    await resetTelemetry();
    await client.callTool({ name: 'divide', arguments: { a: 1 } });
    expect(named('tools/call divide')).toMatchObject({ status: { code: SpanStatusCode.ERROR }, attributes: expect.objectContaining({ 'error.type': 'tool_error' }) });
  });

  it("names prompts/get by the prompt, with gen_ai.prompt.name; resources/read by its method alone", async () => {
    await client.getPrompt({ name: 'explain', arguments: { topic: 'tides' } });
    expect(named('prompts/get explain').attributes).toEqual({
      'mcp.method.name': 'prompts/get',
      'gen_ai.prompt.name': 'explain',
      'mcp.protocol.version': '2025-11-25',
      'jsonrpc.request.id': expect.stringMatching(/^\d+$/),
    });
    await client.readResource({ uri: 'calc://constant/pi', _meta: { traceparent } });
    const read = named('resources/read');
    expect(read.attributes).toEqual({ 'mcp.method.name': 'resources/read', 'mcp.protocol.version': '2025-11-25', 'jsonrpc.request.id': expect.stringMatching(/^\d+$/) });
    expect(read.parentSpanContext?.spanId).toBe(callerSpanId);
  });

  it('records mcp.server.operation.duration in seconds, with the low-cardinality attributes and the advised buckets', async () => {
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    await client.callTool({ name: 'add', arguments: { a: 3, b: 4 } });
    await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
    const points = await histogram(OPERATION);
    expect(points.map((p) => [p.attributes, p.value.count])).toEqual([
      [{ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'add', 'mcp.protocol.version': '2025-11-25' }, 2],
      [{ 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'divide', 'mcp.protocol.version': '2025-11-25', 'error.type': 'tool_error' }, 1],
    ]);
    expect(points[0].value.buckets.boundaries).toEqual(BUCKETS);
    expect(points[0].value.sum).toBeGreaterThan(0);
    expect(points[0].value.sum).toBeLessThan(5); // seconds, not milliseconds
  });
});

describe('OpenTelemetryInterceptor as middleware (in memory)', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(appWith({ middleware: [new OpenTelemetryInterceptor({ tracer, meter })] }));
  });
  afterAll(() => client.close());

  it('traces lists and requests, each continuing its caller’s trace; resources/read carries mcp.resource.uri', async () => {
    await client.listTools({ _meta: { traceparent } });
    await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent } });
    await client.readResource({ uri: 'calc://constant/pi', _meta: { traceparent } });

    const list = named('tools/list');
    expect(list.attributes).toEqual({ 'mcp.method.name': 'tools/list', 'mcp.protocol.version': '2025-11-25', 'jsonrpc.request.id': expect.stringMatching(/^\d+$/) });
    expect(list.parentSpanContext?.spanId).toBe(callerSpanId);

    const call = named('tools/call add');
    expect(call.parentSpanContext?.spanId).toBe(callerSpanId);
    expect(named('compute').parentSpanContext?.spanId).toBe(call.spanContext().spanId);

    // URIs stay out of span names (unbounded cardinality): they are an attribute.
    expect(named('resources/read').attributes).toMatchObject({ 'mcp.method.name': 'resources/read', 'mcp.resource.uri': 'calc://constant/pi' });
  });

  it('reports a JSON-RPC error by its code (error.type and rpc.response.status_code), invalid tool arguments as tool_error', async () => {
    await expect(client.callTool({ name: 'missing', arguments: {} })).rejects.toMatchObject({ code: -32602 });
    expect(named('tools/call missing')).toMatchObject({
      status: { code: SpanStatusCode.ERROR, message: 'Unknown tool: missing' },
      attributes: expect.objectContaining({ 'error.type': '-32602', 'rpc.response.status_code': '-32602' }),
    });
    await client.callTool({ name: 'divide', arguments: { a: 1 } });
    expect(named('tools/call divide').attributes['error.type']).toBe('tool_error');
    await expect(client.readResource({ uri: 'calc://nothing/here' })).rejects.toMatchObject({ code: expect.any(Number) });
    const read = named('resources/read');
    expect(read.attributes['error.type']).toMatch(/^-32\d{3}$/);
    expect(read.attributes['rpc.response.status_code']).toBe(read.attributes['error.type']);
  });

  it('records mcp.server.session.duration when a connection closes', async () => {
    const own = await createTestClient(appWith({ middleware: [new OpenTelemetryInterceptor({ tracer, meter })] }));
    await own.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
    expect(await histogram(SESSION)).toEqual([]);
    await own.close();
    const [session, ...more] = await histogram(SESSION);
    expect(more).toEqual([]);
    // In memory: no network.transport (neither a pipe nor TCP).
    expect(session.attributes).toEqual({ 'mcp.protocol.version': '2025-11-25' });
    expect(session.value.count).toBe(1);
    expect(session.value.buckets.boundaries).toEqual(BUCKETS);
  });
});

describe('OpenTelemetryInterceptor inside an outer instrumentation', () => {
  it("links the span that was active when a traceparent makes the caller's span the parent; else nests under it", async () => {
    const outer = {
      onRequest: (_ctx: unknown, next: () => Promise<unknown>) => tracer.startActiveSpan('outer', (span) => next().finally(() => span.end())),
    };
    const client = await createTestClient(appWith({ middleware: [outer, new OpenTelemetryInterceptor({ tracer, meter })] }));
    try {
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 }, _meta: { traceparent } });
      const linked = named('tools/call add');
      expect(linked.parentSpanContext?.spanId).toBe(callerSpanId);
      expect(linked.links.map((link) => link.context.spanId)).toEqual([named('outer').spanContext().spanId]);
      await resetTelemetry();
      await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } });
      const nested = named('tools/call add');
      expect(nested.parentSpanContext?.spanId).toBe(named('outer').spanContext().spanId);
      expect(nested.links).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('OpenTelemetryInterceptor with legacyAttributes', () => {
  it("adds today's mcp.component.kind, mcp.component.name and mcp.outcome to the convention's attributes", async () => {
    const client = await createTestClient(appWith({ interceptors: [new OpenTelemetryInterceptor({ tracer, meter, legacyAttributes: true })] }));
    try {
      await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
      await client.readResource({ uri: 'calc://constant/pi' });
    } finally {
      await client.close();
    }
    expect(named('tools/call divide').attributes).toMatchObject({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': 'divide',
      'mcp.component.kind': 'tool',
      'mcp.component.name': 'divide',
      'mcp.outcome': 'error',
      'error.type': 'tool_error',
    });
    expect(named('resources/read').attributes).toMatchObject({ 'mcp.component.kind': 'resource-template', 'mcp.component.name': 'constant', 'mcp.outcome': 'ok' });
    // Not in the metric: its attributes are the convention's.
    const points = await histogram(OPERATION);
    expect(points.flatMap((p) => Object.keys(p.attributes)).filter((key) => key.startsWith('mcp.component') || key === 'mcp.outcome')).toEqual([]);
  });
});

describe('OpenTelemetryInterceptor with the global providers, over HTTP', () => {
  afterAll(() => {
    trace.disable();
    metrics.disable();
  });

  it("records network.transport 'tcp', the session id, and the session's duration when it ends", async () => {
    trace.setGlobalTracerProvider(provider);
    metrics.setGlobalMeterProvider(meterProvider);
    const app = await McpFactory.create(appWith({ interceptors: [new OpenTelemetryInterceptor({ tracerName: 'weather-server' })] }));
    try {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const transport = new StreamableHTTPClientTransport(new URL(await app.getUrl()));
      const client = new Client({ name: 'otel-http', version: '1.0.0' });
      await client.connect(transport);
      await client.callTool({ name: 'add', arguments: { a: 2, b: 2 }, _meta: { traceparent } });
      const sessionId = transport.sessionId;
      expect(sessionId).toEqual(expect.any(String));
      await transport.terminateSession();
      await client.close();
      const server = named('tools/call add');
      expect(server.instrumentationScope.name).toBe('weather-server');
      expect(server.attributes).toMatchObject({ 'mcp.session.id': sessionId, 'network.transport': 'tcp', 'network.protocol.name': 'http', 'mcp.protocol.version': '2025-11-25' });
      expect(server.parentSpanContext?.spanId).toBe(callerSpanId);
      const [operation] = await histogram(OPERATION).then((points) => points.filter((p) => p.attributes['gen_ai.tool.name'] === 'add'));
      expect(operation.attributes).toMatchObject({ 'network.transport': 'tcp', 'network.protocol.name': 'http' });
      expect(operation.attributes['mcp.session.id']).toBeUndefined();
    } finally {
      await app.close();
    }
    const sessions = await histogram(SESSION);
    expect(sessions.map((p) => [p.attributes, p.value.count])).toEqual([[{ 'mcp.protocol.version': '2025-11-25', 'network.transport': 'tcp', 'network.protocol.name': 'http' }, 1]]);
  });
});

describe('OpenTelemetryInterceptor over HTTP on 2026-07-28', () => {
  it("records the request's revision; a request without a session is not a session", async () => {
    const app = await McpFactory.create(appWith({ middleware: [new OpenTelemetryInterceptor({ tracer, meter })] }));
    try {
      await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      const client = new Client({ name: 'otel-modern', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
      await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl())));
      await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
      await client.close();
      const span = named('tools/call add');
      expect(span.attributes).toMatchObject({ 'mcp.protocol.version': '2026-07-28', 'network.transport': 'tcp', 'network.protocol.name': 'http' });
      expect(span.attributes['mcp.session.id']).toBeUndefined();
    } finally {
      await app.close();
    }
    expect(await histogram(SESSION)).toEqual([]);
  });
});

describe('OpenTelemetryInterceptor over stdio', () => {
  it("records network.transport 'pipe' on spans, operations and the session", async () => {
    const app = await McpFactory.create(appWith({ middleware: [new OpenTelemetryInterceptor({ tracer, meter })] }));
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    try {
      await app.connect(new StdioServerTransport(toServer, toClient));
      // The client's end of the same pipes: newline-delimited JSON-RPC both ways, as over a process's stdio.
      const client = new Client({ name: 'otel-stdio', version: '1.0.0' });
      await client.connect(new StdioServerTransport(toClient, toServer));
      await client.callTool({ name: 'add', arguments: { a: 2, b: 2 } });
      expect(named('tools/call add').attributes).toMatchObject({ 'network.transport': 'pipe', 'mcp.protocol.version': '2025-11-25' });
      expect(named('tools/call add').attributes['network.protocol.name']).toBeUndefined();
      const [operation] = await histogram(OPERATION);
      expect(operation.attributes).toMatchObject({ 'network.transport': 'pipe' });
      await client.close();
    } finally {
      await app.close();
    }
    const sessions = await histogram(SESSION);
    expect(sessions.map((p) => [p.attributes, p.value.count])).toEqual([[{ 'mcp.protocol.version': '2025-11-25', 'network.transport': 'pipe' }, 1]]);
  });
});

// Without @opentelemetry/api installed (a consumer of the packed package): spec/package/bundle.spec.ts.
