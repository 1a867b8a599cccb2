import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import type { Context } from '../context';
import { RequestError, RpcCode } from '../errors';
import { boundedFetch } from './bounded-fetch';
import { CallSlots } from './call-slots';
import { Bucket } from './forwarded-call';
import { printable } from '../catalogue';
import { listCatalogue, type RemoteCatalogue } from './remote-catalogue';
import { ToolCalls } from './tool-calls';
import type { McpProxyOptions } from './proxy.options';

export type { RemoteCatalogue } from './remote-catalogue';

/** What the proxy hears from its remote: a new catalogue, a resource that changed (the remote's URI). */
export interface RemoteEvents {
  catalogue(catalogue: RemoteCatalogue): void;
  updated(uri: string): void;
}

const MAX_SUBSCRIPTIONS = 100; // resources of one remote subscribed to

export interface Logger {
  error(message: string): void;
  warn?(message: string): void;
  info?(message: string): void;
}

type State = 'idle' | 'connecting' | 'up' | 'down' | 'closed';

/**
 * The SDK client, loaded when a proxy first connects: an application without proxies never loads it. Its
 * CommonJS build is required (never `import()`, which a CommonJS consumer's loader such as jest's cannot follow
 * without --experimental-vm-modules); a bundler follows the literal require (it is a dependency of mcp-reflect).
 */
const requireSdk = () => {
  const client = require('@modelcontextprotocol/client') as typeof import('@modelcontextprotocol/client');
  const stdio = require('@modelcontextprotocol/client/stdio') as typeof import('@modelcontextprotocol/client/stdio');
  const { Client, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport } = client;
  // POSIX: the remote in a process group of its own, ended whole (a wrapper's grandchild too). Windows has no such
  // group: the SDK's transport (cross-spawn resolves `npx.cmd` and the like) ends the child it started.
  const StdioClientTransport = process.platform === 'win32' ? stdio.StdioClientTransport : (require('./stdio-group-transport') as typeof import('./stdio-group-transport')).StdioGroupTransport;
  return { Client, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport, StdioClientTransport };
};
type ClientSdk = ReturnType<typeof requireSdk>;
export type Client = InstanceType<ClientSdk['Client']>;
type StdioClientTransport = InstanceType<ClientSdk['StdioClientTransport']>;
type StreamableHTTPClientTransport = InstanceType<ClientSdk['StreamableHTTPClientTransport']>;
let sdk: Promise<ClientSdk> | undefined;
const loadSdk = (): Promise<ClientSdk> => (sdk ??= Promise.resolve().then(requireSdk));

/**
 * One remote MCP server, through the official SDK client: connected at start (bounded by `connectTimeout`),
 * its components listed (bounded in pages and count), listed again on its `list_changed`, and reconnected
 * with a doubling delay when the connection is lost. Requests are forwarded with the caller's progress and
 * cancellation, each bounded by `requestTimeout`; while the remote is down they fail at once, saying so.
 */
export class RemoteServer {
  private client?: Client;
  private state: State = 'idle';
  private delay: number;
  private retry?: NodeJS.Timeout;
  private lastError = '';
  /** Why each lost connection was lost: its pending calls may fail after a reconnection has begun. */
  private readonly lostFor = new WeakMap<Client, string>();
  /** A listing after `list_changed`: one at a time, at most one per `relistInterval` (a flood makes one more). */
  private listing = false;
  private changedMeanwhile = false;
  private relist?: NodeJS.Timeout;
  private listedAt = 0;
  private stderrTail = '';
  private readonly calls: ToolCalls = new ToolCalls(this);
  /** @internal The calls of the remote in flight, in all and per caller. */
  readonly slots: CallSlots;

  constructor(
    readonly options: McpProxyOptions,
    readonly logger: Logger,
    private readonly events: RemoteEvents,
  ) {
    this.delay = options.reconnect?.initialDelay ?? 500;
    this.slots = new CallSlots(options.maxCalls ?? 256, options.maxCallsPerClient ?? 32, () => this.label);
  }

  private get maxBytes(): number {
    return this.options.maxMessageBytes ?? 8 * 1024 * 1024;
  }

  /** The protocol revision the remote speaks now (undefined while it is not connected). */
  get protocolVersion(): string | undefined {
    return this.client?.getNegotiatedProtocolVersion();
  }

  /** How the proxy names the remote in messages: its namespace and where it runs. */
  get label(): string {
    const { stdio, url, namespace } = this.options;
    const where = stdio ? `${stdio.command} ${(stdio.args ?? []).join(' ')}`.trim() : url !== undefined ? String(url) : 'its own transport';
    return `remote MCP server '${namespace}' (${where})`;
  }

  /** Connects once; a failure is logged and retried in the background (the application starts without its components). */
  async start(): Promise<void> {
    if (this.state !== 'idle') return;
    await this.connect();
  }

  async close(): Promise<void> {
    this.state = 'closed';
    clearTimeout(this.retry);
    clearTimeout(this.relist);
    const client = this.client;
    this.client = undefined;
    await client?.close().catch(() => undefined);
  }

  /** `tools/call` on the remote, the remote's questions asked of the caller (`ToolCalls`). */
  callTool(name: string, args: Record<string, unknown> | undefined, ctx: Context): Promise<Record<string, unknown>> {
    return this.calls.callTool(name, args, ctx);
  }

  readResource(uri: string, ctx: Context): Promise<{ contents: unknown[] }> {
    return this.forward(ctx, (client) => client.readResource({ uri }, this.requestOptions(ctx))) as Promise<{ contents: unknown[] }>;
  }

  complete(params: { ref: unknown; argument: { name: string; value: string }; context?: unknown }, ctx: Context): Promise<{ completion: { values: string[]; total?: number; hasMore?: boolean } }> {
    return this.forward(ctx, (client) => client.complete(params as never, this.requestOptions(ctx))) as never;
  }

  getPrompt(name: string, args: Record<string, string>, ctx: Context): Promise<{ description?: string; messages: unknown[] }> {
    return this.forward(ctx, (client) => client.getPrompt({ name, arguments: args }, this.requestOptions(ctx))) as Promise<{ description?: string; messages: unknown[] }>;
  }

  /** @internal */
  requestOptions(ctx: Context) {
    return { signal: ctx.signal, timeout: this.options.requestTimeout ?? 60_000, resetTimeoutOnProgress: true };
  }

  /** @internal */
  async forward<T>(ctx: Context, request: (client: Client) => Promise<T>): Promise<T> {
    const client = this.usable();
    const release = this.slots.take(ctx.clientKey);
    try {
      return await request(client);
    } catch (error) {
      throw await this.failure(error, client, ctx);
    } finally {
      release();
    }
  }

  /** @internal */
  usable(): Client {
    const client = this.client;
    if (this.state !== 'up' || !client) {
      throw new RequestError(RpcCode.InternalError, `The ${this.label} is unavailable${this.lastError ? ` (${this.lastError})` : ''}; it is being reconnected. Try again shortly.`);
    }
    return client;
  }

  /** @internal */
  async failure(error: unknown, client: Client, ctx: Context): Promise<Error> {
    const { ProtocolError, SdkError, SdkErrorCode } = await loadSdk();
    if (error instanceof ProtocolError) return new RequestError(error.code, error.message.replace(/^MCP error -?\d+: /, ''));
    if (error instanceof RequestError) return error;
    const lostFor = this.client !== client ? this.lostFor.get(client) : undefined; // lost meanwhile: say why
    const reason = lostFor ?? (error instanceof Error ? error.message : String(error));
    const slow = error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout;
    if (!ctx.signal.aborted && !slow) this.lost(client, reason);
    return new RequestError(RpcCode.InternalError, `The ${this.label} did not answer: ${reason}`);
  }

  private async connect(): Promise<void> {
    this.state = 'connecting';
    const { Client, StdioClientTransport, StreamableHTTPClientTransport } = await loadSdk();
    // It declares what it can pass on to its callers; a caller without the capability gets a clear error.
    const timeout = this.options.connectTimeout ?? 10_000;
    const client = new Client(
      { name: 'mcp-reflect-proxy', version: '1.0.0' },
      {
        capabilities: { elicitation: { form: {}, url: {} }, sampling: {}, roots: {} },
        inputRequired: { autoFulfill: false },
        versionNegotiation: { mode: this.negotiation(), probe: { timeoutMs: Math.ceil(timeout / 2) } },
      } as never,
    );
    for (const method of ['elicitation/create', 'sampling/createMessage', 'roots/list'] as const) {
      client.setRequestHandler(method, ((request: { params?: Record<string, unknown> }) => this.calls.question(method, request.params)) as never);
    }
    const updates = new Bucket(100, 50);
    client.setNotificationHandler('notifications/resources/updated', ((n: { params: { uri: string } }) => void (updates.take() && this.events.updated(String(n.params.uri)))) as never);
    client.setNotificationHandler('notifications/message', ((notification: { params: { level?: string; data?: unknown; logger?: string } }) => this.calls.log(notification.params)) as never);
    let timer: NodeJS.Timeout | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(slowStart(timeout, this.options))), timeout);
      });
      // Over stdio a message past the bound is dropped half-read: the stream cannot be trusted after it.
      client.onerror = (error: Error) => {
        if (/exceeded maximum size/.test(error.message)) this.lost(client, `it sent a message larger than ${this.maxBytes} bytes (maxMessageBytes)`);
      };
      const transport = this.options.transport ? notificationsFirst(await this.options.transport()) : this.transport(StdioClientTransport, StreamableHTTPClientTransport);
      await Promise.race([client.connect(transport), deadline]);
      this.client = client;
      client.onclose = () => this.lost(client, 'the connection closed');
      for (const method of ['notifications/tools/list_changed', 'notifications/resources/list_changed', 'notifications/prompts/list_changed'] as const) {
        client.setNotificationHandler(method, () => this.changed());
      }
      const catalogue = await Promise.race([this.list(client), deadline]);
      this.listedAt = Date.now();
      this.state = 'up';
      this.delay = this.options.reconnect?.initialDelay ?? 500;
      this.lastError = '';
      this.events.catalogue(catalogue);
      void this.subscribe(client, catalogue);
    } catch (error) {
      this.lastError = printable(error instanceof Error ? error.message : String(error), 500);
      const stderr = this.stderrTail.trim() ? ` Its stderr ended with: ${printable(this.stderrTail.trim().split('\n').slice(-3).join(' | '), 1_000)}` : '';
      this.logger.error(`Cannot connect to the ${this.label}: ${this.lastError}. Its components are not served; retrying in ${this.delay} ms.${stderr}`);
      if (this.client === client) this.client = undefined;
      client.onclose = undefined;
      await client.close().catch(() => undefined);
      this.scheduleReconnect();
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Subscribes to the remote's resources (the first 100), when it supports subscriptions and `subscribe` is
   * not false, so that its `resources/updated` reach the gateway's subscribed sessions. Each listing
   * subscribes again: a remote keeps subscriptions per session, and a reconnection opens a new one.
   */
  private async subscribe(client: Client, catalogue: RemoteCatalogue): Promise<void> {
    if (this.options.subscribe === false || !client.getServerCapabilities()?.resources?.subscribe) return;
    const timeout = { timeout: this.options.connectTimeout ?? 10_000 };
    const failed = (await Promise.allSettled(catalogue.resources.slice(0, MAX_SUBSCRIPTIONS).map((r) => client.subscribeResource({ uri: r.uri }, timeout)))).filter(
      (outcome) => outcome.status === 'rejected',
    );
    if (failed.length > 0) this.logger.error(`The ${this.label} refused ${failed.length} resource subscriptions: ${printable((failed[0] as PromiseRejectedResult).reason, 500)}.`);
  }

  private negotiation(): 'auto' | 'legacy' | { pin: string } {
    const { protocol = 'auto' } = this.options;
    return protocol === 'auto' ? 'auto' : protocol === '2025-11-25' ? 'legacy' : { pin: protocol };
  }

  private lost(client: Client, reason: string): void {
    if (this.client !== client || this.state === 'closed') return;
    this.lostFor.set(client, reason);
    this.client = undefined;
    clearTimeout(this.relist);
    this.relist = undefined;
    client.onclose = undefined;
    void client.close().catch(() => undefined); // a child process that still runs is stopped
    this.state = 'down';
    this.lastError = reason;
    this.logger.error(`Lost the ${this.label}: ${printable(reason, 500)}. Its components fail until it is back; reconnecting in ${this.delay} ms.`);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.state === 'closed') return;
    this.state = 'down';
    const wait = this.delay;
    this.delay = Math.min(this.delay * 2, this.options.reconnect?.maxDelay ?? 30_000);
    this.retry = setTimeout(() => void this.connect(), wait);
    this.retry.unref();
  }

  /**
   * The remote's `list_changed`: it is listed again, once at a time and at most once per `relistInterval`
   * (default 1 s) after the last listing ended; any number of notifications meanwhile make one more listing,
   * so a remote flooding them costs one listing per interval, and clients one `list_changed` per kind.
   */
  private changed(): void {
    this.changedMeanwhile = true;
    if (this.listing || this.relist || this.state !== 'up') return;
    const wait = Math.max(0, this.listedAt + (this.options.relistInterval ?? 1_000) - Date.now());
    this.relist = setTimeout(() => {
      this.relist = undefined;
      void this.refresh();
    }, wait);
    this.relist.unref();
  }

  private async refresh(): Promise<void> {
    const client = this.client;
    if (!client || this.state !== 'up' || !this.changedMeanwhile) return;
    this.changedMeanwhile = false;
    this.listing = true;
    try {
      const catalogue = await this.list(client);
      if (this.client !== client) return; // lost meanwhile: the reconnection lists it
      this.events.catalogue(catalogue);
      void this.subscribe(client, catalogue);
    } catch (error) {
      this.logger.error(`Cannot list the components of the ${this.label} again: ${printable(error instanceof Error ? error.message : String(error), 500)}. The last list is kept.`);
    } finally {
      this.listing = false;
      this.listedAt = Date.now();
      if (this.changedMeanwhile && this.client === client) this.changed();
    }
  }

  /** The remote's lists within the catalogue's bounds (`listCatalogue`), the whole within `connectTimeout`. */
  private list(client: Client): Promise<RemoteCatalogue> {
    const signal = AbortSignal.timeout(this.options.connectTimeout ?? 10_000);
    return listCatalogue(client as never, this.options, this.label, signal, (message) => this.logger.error(message));
  }

  private transport(Stdio: ClientSdk['StdioClientTransport'], Http: ClientSdk['StreamableHTTPClientTransport']): StdioClientTransport | StreamableHTTPClientTransport {
    const { stdio, url, headers } = this.options;
    if (stdio) {
      const env = stdio.env ? { env: { ...stdio.env } } : {};
      const transport = new Stdio({ command: stdio.command, args: [...(stdio.args ?? [])], ...env, ...(stdio.cwd ? { cwd: stdio.cwd } : {}), stderr: 'pipe', maxBufferSize: this.maxBytes });
      // Its stderr is read (a full pipe would stall it) and its last lines kept for the messages of a failure.
      transport.stderr?.on('data', (chunk: Buffer) => void (this.stderrTail = (this.stderrTail + chunk.toString()).slice(-1_000)));
      return notificationsFirst(transport);
    }
    return notificationsFirst(new Http(new URL(String(url)), { ...(headers ? { requestInit: { headers: { ...headers } } } : {}), fetch: boundedFetch(this.maxBytes, () => this.label) }));
  }
}

/**
 * The SDK client handles a response at once but a notification a microtask later, and drops progress for a
 * request answered meanwhile: a remote's last progress, read together with its result, would be lost. Here a
 * response that arrives in the same turn as a notification is handed on in the next turn, after it.
 */
type Receive = (message: JSONRPCMessage) => void;

function notificationsFirst<T extends Transport>(transport: T): T {
  let inner: Receive | undefined;
  let notified = false;
  const receive: Receive = (message) => {
    const isNotification = 'method' in message && !('id' in message);
    if (isNotification && !notified) {
      notified = true;
      setImmediate(() => void (notified = false));
    }
    if (!isNotification && notified && !('method' in message)) setImmediate(() => inner?.(message));
    else inner?.(message);
  };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    get: () => inner && receive,
    set: (handler: Receive | undefined) => void (inner = handler),
  });
  return transport;
}

/**
 * The connect timeout's cause and fix: the option that bounds it, how to raise it, and (over stdio) how to start
 * the remote without a download at each start (`npx -y` fetches the package first, which can take longer).
 */
function slowStart(timeout: number, options: McpProxyOptions): string {
  const download = options.stdio && /(^|[/\\])(npx|pnpx|bunx)(\.cmd)?$/.test(options.stdio.command) ? ` (${options.stdio.command} may be downloading the package)` : '';
  const stdio = options.stdio
    ? "; or start the remote without a download: npm install it, then stdio: { command: process.execPath, args: [require.resolve('<package>/<its bin file>'), ...] }"
    : '';
  return `no answer within connectTimeout (${timeout} ms)${download}. Fix: raise it if the remote is slow to start: McpModule.proxy({ ..., connectTimeout: ${Math.max(timeout * 3, 30_000)} })${stdio}`;
}
