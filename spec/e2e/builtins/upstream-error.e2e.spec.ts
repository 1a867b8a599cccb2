import 'reflect-metadata';
import { lookup } from 'node:dns/promises';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import {
  Injectable,
  McpModule,
  Module,
  Param,
  ResourceTemplate,
  Tool,
  ToolError,
  UpstreamErrorFilter,
  UpstreamHttpError,
  UseFilters,
  assertUpstreamOk,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { answer } from '../../support/clients';

/** A real upstream on 127.0.0.1: `/status/<code>?retry=<Retry-After>`, `/hang` never answers, `/reset` cuts the connection. */
let upstream: Server;
let base: string;
const sockets = new Set<Socket>();
/** A port nothing listens on. */
let closedPort: number;

beforeAll(async () => {
  upstream = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/hang') return; // never answers
    if (url.pathname === '/reset') return void req.socket.resetAndDestroy();
    const status = Number(url.pathname.split('/')[2] ?? 200);
    const retry = url.searchParams.get('retry');
    res.writeHead(status, retry ? { 'retry-after': retry } : {});
    res.end(status === 200 ? 'Sunny' : 'upstream failure details');
  });
  upstream.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const probe = createTcpServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => upstream.close(resolve));
});

@Injectable()
@UseFilters(new UpstreamErrorFilter({ service: 'weather service' }))
class Weather {
  @Tool()
  async forecast(@Param() path: string): Promise<string> {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(2_000) });
    assertUpstreamOk(response);
    return response.text();
  }

  @Tool()
  async impatient(@Param() path: string): Promise<string> {
    const response = await fetch(`${base}${path}`, { signal: AbortSignal.timeout(50) });
    assertUpstreamOk(response);
    return response.text();
  }

  @Tool()
  async named(@Param() path: string): Promise<string> {
    const response = await fetch(`${base}${path}`);
    assertUpstreamOk(response, 'forecast API');
    return response.text();
  }

  @Tool()
  async fetchUrl(@Param() url: string): Promise<string> {
    const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
    assertUpstreamOk(response);
    return response.text();
  }

  @Tool()
  async cancelled(): Promise<string> {
    const controller = new AbortController();
    const pending = fetch(`${base}/hang`, { signal: controller.signal });
    controller.abort();
    return (await pending).text();
  }

  /** undici's own timeouts, as its dispatcher reports them inside `TypeError('fetch failed')`. */
  @Tool()
  undici(@Param() code: string): string {
    throw new TypeError('fetch failed', { cause: Object.assign(new Error(`undici ${code}`), { code }) });
  }

  @Tool()
  refuse(): string {
    throw new ToolError('No station in Atlantis: try a city on land.');
  }

  @Tool()
  crash(): string {
    throw new Error('secret internals');
  }

  @ResourceTemplate('weather://upstream/{status}')
  status(@Param() status: string): Promise<string> {
    return fetch(`${base}/status/${status}`).then((response) => {
      assertUpstreamOk(response);
      return response.text();
    });
  }
}

/** The filter given as a class: built by the container, with its default service name. */
@Injectable()
@UseFilters(UpstreamErrorFilter)
class Plain {
  @Tool()
  async plain(@Param() path: string): Promise<string> {
    const response = await fetch(`${base}${path}`);
    assertUpstreamOk(response);
    return response.text();
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'upstream', version: '1.0.0', logger: { error() {}, warn() {} } })], providers: [Weather, Plain] })
class UpstreamModule {}

describe('UpstreamErrorFilter', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(UpstreamModule);
  });
  afterAll(() => client.close());

  const call = async (name: string, args: Record<string, unknown> = {}) => answer(await client.callTool({ name, arguments: args }));
  const failure = (text: string) => ({ text, isError: true });

  it('passes answers through', async () => {
    expect(await call('forecast', { path: '/status/200' })).toEqual({ text: 'Sunny', isError: false });
  });

  it.each([
    ['/status/429?retry=30', 'The weather service is rate limiting requests (HTTP 429): try again in 30 s.'],
    ['/status/429', 'The weather service is rate limiting requests (HTTP 429): try again in a minute.'],
    ['/status/503', 'The weather service is temporarily unavailable (HTTP 503): try again in a minute.'],
    ['/status/503?retry=120', 'The weather service is temporarily unavailable (HTTP 503): try again in 2 min.'],
    ['/status/500', 'The weather service failed (HTTP 500): the fault is on its side, not in the request; try again in a minute.'],
    ['/status/502?retry=5', 'The weather service failed (HTTP 502): the fault is on its side, not in the request; try again in 5 s.'],
    ['/status/504', 'The weather service timed out (HTTP 504): try again in a minute, or ask for less data at once.'],
    ['/status/401', "The weather service refused this server's credentials (HTTP 401): retrying will not help; the server's operator must fix its configuration."],
    ['/status/404', 'The weather service has nothing at the address it was asked for (HTTP 404): check the arguments (a name or identifier may be wrong).'],
    ['/status/400', 'The weather service rejected the request (HTTP 400): check the arguments before trying again.'],
  ])('maps HTTP %s from assertUpstreamOk', async (path, text) => {
    expect(await call('forecast', { path })).toEqual(failure(text));
  });

  it('reads a Retry-After given as an HTTP date', async () => {
    const later = new Date(Date.now() + 10 * 60_000).toUTCString();
    const result = await call('forecast', { path: `/status/429?retry=${encodeURIComponent(later)}` });
    // An HTTP date has whole seconds: 9 or 10 minutes from now, rounded up to minutes.
    expect(result.text).toMatch(/^The weather service is rate limiting requests \(HTTP 429\): try again in (9|10) min\.$/);
  });

  it('prefers the service named by assertUpstreamOk', async () => {
    expect(await call('named', { path: '/status/429?retry=3' })).toEqual(failure('The forecast API is rate limiting requests (HTTP 429): try again in 3 s.'));
  });

  it('maps a timeout of AbortSignal.timeout() on a server that never answers', async () => {
    expect(await call('impatient', { path: '/hang' })).toEqual(failure('The weather service did not answer in time: try again in a moment, or ask for less data at once.'));
  });

  it('maps a refused connection (a closed port)', async () => {
    expect(await call('fetchUrl', { url: `http://127.0.0.1:${closedPort}/` })).toEqual(
      failure('The weather service refused the connection (ECONNREFUSED): it may be down or restarting; try again in a minute.'),
    );
  });

  it('maps a connection the upstream cuts', async () => {
    expect(await call('forecast', { path: '/reset' })).toEqual(failure('The connection to the weather service was cut (ECONNRESET): try again.'));
  });

  it('maps a host name that does not resolve', async () => {
    // `.invalid` never resolves (RFC 6761); without a resolver at all the system says EAI_AGAIN instead.
    const code = await lookup('weather.invalid').then(
      () => 'resolved',
      (error: NodeJS.ErrnoException) => error.code,
    );
    const expected =
      code === 'EAI_AGAIN'
        ? 'The weather service could not be looked up (EAI_AGAIN, a temporary DNS failure): try again in a moment.'
        : "The weather service could not be found (ENOTFOUND: its host name did not resolve): try again later; if it keeps failing, the server's configuration is wrong.";
    expect(code).not.toBe('resolved');
    expect(await call('fetchUrl', { url: 'http://weather.invalid/' })).toEqual(failure(expected));
  });

  it.each(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT'])('maps undici’s %s inside fetch failed', async (code) => {
    expect(await call('undici', { code })).toEqual(failure('The weather service did not answer in time: try again in a moment, or ask for less data at once.'));
  });

  it('maps an aborted fetch', async () => {
    expect(await call('cancelled')).toEqual(failure('The request to the weather service was aborted before it answered: try again.'));
  });

  it('leaves ToolErrors as they are and unknown errors masked', async () => {
    expect(await call('refuse')).toEqual(failure('No station in Atlantis: try a city on land.'));
    expect(await call('crash')).toEqual(failure("Error calling tool 'crash'"));
  });

  it('answers a resource read with a JSON-RPC error carrying the text', async () => {
    await expect(client.readResource({ uri: 'weather://upstream/503' })).rejects.toMatchObject({
      code: -32603,
      message: expect.stringContaining('The weather service is temporarily unavailable (HTTP 503): try again in a minute.'),
    });
  });

  it('works as a class given to @UseFilters(), naming the upstream generically', async () => {
    expect(await call('plain', { path: '/status/429?retry=30' })).toEqual(failure('The upstream service is rate limiting requests (HTTP 429): try again in 30 s.'));
  });
});

describe('assertUpstreamOk', () => {
  it('throws an UpstreamHttpError with the status, the wait and the service', async () => {
    const response = await fetch(`${base}/status/503?retry=7`);
    let error: unknown;
    try {
      assertUpstreamOk(response, 'weather service');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UpstreamHttpError);
    expect(error).toMatchObject({
      name: 'UpstreamHttpError',
      code: 'UPSTREAM_HTTP_ERROR',
      status: 503,
      retryAfter: 7,
      service: 'weather service',
      message: 'The weather service answered HTTP 503 Service Unavailable',
    });
  });

  it('lets an ok response through', async () => {
    const response = await fetch(`${base}/status/200`);
    expect(() => assertUpstreamOk(response)).not.toThrow();
    expect(await response.text()).toBe('Sunny');
  });
});
