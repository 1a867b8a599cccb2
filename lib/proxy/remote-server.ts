import type { JSONRPCMessage, Transport, Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { Context } from '../context';
import { RequestError, RpcCode } from '../errors';
import { Bucket } from './forwarded-call';
import { ToolCalls } from './tool-calls';
import type { McpProxyOptions } from './proxy.options';

/** What the proxy hears from its remote: a new catalogue, a resource that changed (the remote's URI). */
export interface RemoteEvents {
  catalogue(catalogue: RemoteCatalogue): void;
  updated(uri: string): void;
}

const MAX_SUBSCRIPTIONS = 100; // resources of one remote subscribed to

/** What the remote serves, as it listed it when it last connected or changed. */
export interface RemoteCatalogue {
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
  /** Whether it completes prompt arguments and template variables (`completion/complete`). */
  readonly completions: boolean;
}

export interface Logger {
  error(message: string): void;
  warn?(message: string): void;
  info?(message: string): void;
}



type State = 'idle' | 'connecting' | 'up' | 'down' | 'closed';

/** The SDK client, loaded when a proxy first connects: an application without proxies never loads it. */
const importSdk = async () => {
  const [client, stdio] = await Promise.all([import('@modelcontextprotocol/client'), import('@modelcontextprotocol/client/stdio')]);
  const { Client, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport } = client;
  return { Client, ProtocolError, SdkError, SdkErrorCode, StreamableHTTPClientTransport, StdioClientTransport: stdio.StdioClientTransport };
};
type ClientSdk = Awaited<ReturnType<typeof importSdk>>;
export type Client = InstanceType<ClientSdk['Client']>;
type StdioClientTransport = InstanceType<ClientSdk['StdioClientTransport']>;
type StreamableHTTPClientTransport = InstanceType<ClientSdk['StreamableHTTPClientTransport']>;
let sdk: Promise<ClientSdk> | undefined;
const loadSdk = (): Promise<ClientSdk> => (sdk ??= importSdk());

const PAGE_LIMIT = 100; // pages per list, whatever the remote's cursors say

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
  private refreshing = false;
  private again = false;
  private stderrTail = '';
  private readonly calls: ToolCalls = new ToolCalls(this);

  constructor(
    readonly options: McpProxyOptions,
    readonly logger: Logger,
    private readonly events: RemoteEvents,
  ) {
    this.delay = options.reconnect?.initialDelay ?? 500;
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
    try {
      return await request(client);
    } catch (error) {
      throw await this.failure(error, client, ctx);
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
        timer = setTimeout(() => reject(new Error(`no answer within ${timeout} ms`)), timeout);
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
        client.setNotificationHandler(method, () => void this.refresh());
      }
      const catalogue = await Promise.race([this.list(client), deadline]);
      this.state = 'up';
      this.delay = this.options.reconnect?.initialDelay ?? 500;
      this.lastError = '';
      this.events.catalogue(catalogue);
      void this.subscribe(client, catalogue);
    } catch (error) {
      this.lastError = error instanceof Error ? error.message : String(error);
      const stderr = this.stderrTail.trim() ? ` Its stderr ended with: ${this.stderrTail.trim().split('\n').slice(-3).join(' | ')}` : '';
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
    if (failed.length > 0) this.logger.error(`The ${this.label} refused ${failed.length} resource subscriptions: ${String((failed[0] as PromiseRejectedResult).reason)}.`);
  }

  private negotiation(): 'auto' | 'legacy' | { pin: string } {
    const { protocol = 'auto' } = this.options;
    return protocol === 'auto' ? 'auto' : protocol === '2025-11-25' ? 'legacy' : { pin: protocol };
  }

  private lost(client: Client, reason: string): void {
    if (this.client !== client || this.state === 'closed') return;
    this.lostFor.set(client, reason);
    this.client = undefined;
    client.onclose = undefined;
    void client.close().catch(() => undefined); // a child process that still runs is stopped
    this.state = 'down';
    this.lastError = reason;
    this.logger.error(`Lost the ${this.label}: ${reason}. Its components fail until it is back; reconnecting in ${this.delay} ms.`);
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
   * Lists again after a `list_changed`: one listing at a time, and any number of changes during it make one
   * more (a remote flooding notifications queues nothing).
   */
  private async refresh(): Promise<void> {
    if (this.refreshing) {
      this.again = true;
      return;
    }
    this.refreshing = true;
    try {
      do {
        this.again = false;
        const client = this.client;
        if (!client || this.state !== 'up') return;
        try {
          {
            const catalogue = await this.list(client);
            this.events.catalogue(catalogue);
            void this.subscribe(client, catalogue);
          }
        } catch (error) {
          this.logger.error(`Cannot list the components of the ${this.label} again: ${error instanceof Error ? error.message : String(error)}. The last list is kept.`);
        }
      } while (this.again);
    } finally {
      this.refreshing = false;
    }
  }

  private async list(client: Client): Promise<RemoteCatalogue> {
    const caps = client.getServerCapabilities() ?? {};
    const timeout = { timeout: this.options.connectTimeout ?? 10_000 };
    const all = async <T>(what: string, page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> => {
      const max = this.options.maxComponents ?? 1_000;
      const items: T[] = [];
      let cursor: string | undefined;
      for (let pages = 0; pages < PAGE_LIMIT; pages++) {
        const answer = await page(cursor);
        items.push(...answer.items);
        cursor = answer.nextCursor;
        if (!cursor || items.length >= max) break;
      }
      if (items.length > max || cursor) this.logger.error(`The ${this.label} lists more ${what} than the proxy takes (${max}): the rest are not served.`);
      return items.slice(0, max);
    };
    const tools = caps.tools ? await all('tools', async (cursor) => { const r = await client.listTools({ cursor }, timeout); return { items: r.tools, nextCursor: r.nextCursor }; }) : [];
    const resources = caps.resources ? await all('resources', async (cursor) => { const r = await client.listResources({ cursor }, timeout); return { items: r.resources, nextCursor: r.nextCursor }; }) : [];
    const templates = caps.resources
      ? await all('resource templates', async (cursor) => { const r = await client.listResourceTemplates({ cursor }, timeout); return { items: r.resourceTemplates, nextCursor: r.nextCursor }; })
      : [];
    const prompts = caps.prompts ? await all('prompts', async (cursor) => { const r = await client.listPrompts({ cursor }, timeout); return { items: r.prompts, nextCursor: r.nextCursor }; }) : [];
    return { tools, resources, templates, prompts, completions: caps.completions !== undefined };
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
    return notificationsFirst(new Http(new URL(String(url)), { ...(headers ? { requestInit: { headers: { ...headers } } } : {}), fetch: boundedFetch(this.maxBytes) }));
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
 * `fetch` for the remote's HTTP transport with a bound on what one answer may hold: a JSON body, or one event
 * of an event stream (bytes since the last blank line). Past it the body errors, failing that request only.
 */
function boundedFetch(max: number): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init);
    if (!response.body) return response;
    let run = 0;
    let previous = 0;
    const bounded = response.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          // The bytes after the last blank line (LF, optional CR, LF) are the event still being read.
          const before = (i: number) => (i < 0 ? previous : chunk[i] === 13 ? (i > 0 ? chunk[i - 1] : previous) : chunk[i]);
          let boundary = -1;
          for (let lf = chunk.indexOf(10); lf !== -1; lf = chunk.indexOf(10, lf + 1)) if (before(lf - 1) === 10) boundary = lf;
          run = boundary === -1 ? run + chunk.length : chunk.length - boundary - 1;
          if (chunk.length > 0) previous = before(chunk.length - 1);
          if (run > max) controller.error(new Error(`the remote sent a message larger than ${max} bytes (maxMessageBytes)`));
          else controller.enqueue(chunk);
        },
      }),
    );
    return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
