import { Server, type AuthInfo, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { isUiResource, UI_EXTENSIONS } from '../apps';
import { BootstrapError, BootstrapErrorCode, RequestError, ToolError } from '../errors';
import { withReadableParams } from './error-mapping';
import { InputRounds } from './input-required';
import type { CacheHint } from '../interfaces';
import { fromAuthInfo } from './auth-info';
import { CallerChannel, mayHearOf, scoped, scopesFor, toolVisible, type Caller } from './visibility';
import { CallerBus } from './listen-bus';
import { isModern } from './server-hub';
import type { ProtocolApplication } from './protocol-application';
import { answerCompletions, answerPrompts, answerResources, answerTools } from './request-handlers';
import type { SessionRuntime } from './session-runtime';
import type { ChannelServices, Connection } from './request-channel';
import type { ServerHub } from './server-hub';
import { checkCacheHint } from '../resources';
import { resolveTasksOptions } from '../tasks';
import { resolveStateOptions } from '../state';
import { answerTasks } from './tasks/tasks-handlers';
import { TaskService } from './tasks/tasks-service';
import { withTaskWire } from './tasks/tasks-wire';
import { paramHeaderMap, type ParamHeader } from './param-headers';

export type { Caller, ProtocolApplication };
export type { CallerBus };

/** Builds one SDK server per connection; `hub` reaches every live session. */
export type ServerFactory = ((connection?: Connection) => Server) & {
  readonly hub: ServerHub;
  /**
   * The scopes a request needs beyond the server's (`@Scopes()` of the component a `tools/call`,
   * `resources/read` or `prompts/get` names), or undefined: none, or no such component.
   */
  readonly scopesFor: (message: unknown) => readonly string[] | undefined;
  /** Whether some component has `@Scopes()` (computed once per change of the catalogues). */
  readonly scoped: () => boolean;
  /**
   * Whether `name` is a tool `caller` may see: enabled, its `@Scopes()` granted, and every guard allowing it as
   * `tools/list` asks them (`phase: 'list'`, so exactly when the caller's list shows it). Nothing of the tool
   * runs. False for a tool that does not exist too. A check made before dispatch (the `Mcp-Param-*` header
   * check) lets the call of a tool that is not visible go on: the tools/call handler answers it as it answers
   * that caller (unknown tool, the scope refusal), and never runs it with headers that disagree.
   */
  readonly toolVisible: (name: string, caller?: Caller) => Promise<boolean>;
  /**
   * The `Caller` of an HTTP request: the identity of `authInfo`, the headers and signal of `request`, and the
   * `id` and `_meta` of `body` when it is one JSON-RPC message.
   */
  readonly callerOf: (request: Request, authInfo?: AuthInfo, body?: unknown) => Caller;
  /**
   * A change bus for the SDK's `subscriptions/listen` streams (`createMcpHandler({ bus })`) that delivers
   * `resources/updated` only to streams whose caller may see the resource; serve each request inside
   * `bus.as(caller, …)`. One per handler.
   */
  readonly listenBus: (onerror?: (error: Error) => void) => CallerBus;
  /** Tool name → its arguments mirrored into `Mcp-Param-*` headers (SEP-2243), computed once per change of the tools. */
  readonly paramHeaders: () => ReadonlyMap<string, readonly ParamHeader[]>;
  /** Aborts the task runs of this process and stops watching the task store (the application closes). */
  readonly close: () => Promise<void>;
  /**
   * A 2025-11-25 session ended for good (DELETE, handshake timeout, an eviction no other instance can take
   * up): the tasks it owns are dropped and their runs aborted. Never rejects (a failing store is logged).
   */
  readonly sessionEnded: (sessionId: string) => Promise<void>;
};

export type { Connection };

type Kinds = { tools: boolean; resources: boolean; prompts: boolean; completions: boolean; logging: boolean; ui: boolean };

// One capabilities object per combination of kinds, shared by every server that declares it.
const CAPABILITIES = new Map<string, Record<string, object>>();

function capabilities(kinds: Kinds): Record<string, object> {
  const key = `${+kinds.tools}${+kinds.resources}${+kinds.prompts}${+kinds.completions}${+kinds.logging}${+kinds.ui}`;
  let declared = CAPABILITIES.get(key);
  if (!declared) {
    declared = {
      ...(kinds.tools ? { tools: { listChanged: true } } : {}),
      ...(kinds.resources ? { resources: { subscribe: true, listChanged: true } } : {}),
      ...(kinds.prompts ? { prompts: { listChanged: true } } : {}),
      ...(kinds.completions ? { completions: {} } : {}),
      ...(kinds.logging ? { logging: {} } : {}),
      // MCP Apps (SEP-1865): a server with `ui://` views declares the extension, with the MIME type it serves.
      ...(kinds.ui ? { extensions: { ...UI_EXTENSIONS } } : {}),
    };
    CAPABILITIES.set(key, declared);
  }
  return declared;
}

type RequestHandler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK server, with invalid params answered -32602 and readably on every method it validates for us: the
 * SDK's own hook around each registered handler (logging/setLevel, registered by the SDK, included).
 */
class ReflectServer extends Server {
  /** The hub that knows this server (set by the factory). */
  hub?: ServerHub;
  /** Whether this connection's caller may hear that a resource changed (set by the factory). */
  hears?: (uri: string) => boolean | Promise<boolean>;

  /**
   * 2026-07-28 over stdio and in memory: the SDK's listen router sends `resources/updated` to every stream whose
   * filter names the URI, and a filter's URIs are not checked, so a resource the caller may not see is dropped
   * here. (2025 eras: `resources/subscribe` refuses such a resource, and only subscribed sessions are sent it.)
   */
  override async sendResourceUpdated(params: Parameters<Server['sendResourceUpdated']>[0]): Promise<void> {
    if (this.hears && isModern(this) && !(await this.hears(params.uri))) return;
    return super.sendResourceUpdated(params);
  }

  /** Whether this session's tools/call may answer with a task (its runtime has a task service; set by the factory). */
  taskResults?: boolean;

  protected override _wrapHandler(method: string, handler: RequestHandler): RequestHandler {
    return withTaskWire(method, handler, (inner) => withReadableParams(method, super._wrapHandler(method, inner)), this.taskResults === true);
  }

  /**
   * Leaves the hub on close, connected or not: the SDK closes servers it built but never connected (the
   * per-request handler's `subscriptions/listen` route does), and those never fire `onclose`.
   */
  override async close(): Promise<void> {
    this.hub?.forget(this);
    return super.close();
  }

  /** Leaves the hub when the transport closes (a session ends, a per-request exchange is over). */
  protected override _onclose(): void {
    this.hub?.forget(this);
    super._onclose();
  }
}

/**
 * Returns the cheap per-connection factory: a low-level SDK `Server` whose handlers only read what
 * bootstrap compiled. stdio and the in-memory transport call it once per connection (and the SDK once more
 * for a `server/discover` probe).
 */
export function createServerFactory(app: ProtocolApplication): ServerFactory {
  // Whether some component receives a Context (and so may log): computed once per catalogue change.
  let logs: boolean | undefined;
  // Whether some resource is an MCP Apps view: computed once per catalogue change too.
  let views: boolean | undefined;
  const changed = (kind: 'tools' | 'prompts' | 'resources') => () => {
    logs = undefined;
    views = undefined;
    app.hub.listChanged(kind);
  };
  app.tools.onChange(changed('tools'));
  app.prompts.onChange(changed('prompts'));
  app.resources.resources.onChange(changed('resources'));
  app.resources.templates.onChange(changed('resources'));
  const canLog = () =>
    (logs ??=
      app.tools.some((t) => t.pipeline.takesContext) ||
      app.prompts.some((p) => p.pipeline.takesContext) ||
      app.resources.usesContext() ||
      app.completions.usesContext);

  const rounds = new InputRounds(app.stateSecret);
  const cacheHints = checkedCacheHints(app.cacheHints);
  // Tasks (docs/tasks.md): the options are checked at bootstrap; the service exists once some tool is a task tool.
  const taskOptions = app.tasks ? resolveTasksOptions(app.tasks) : undefined;
  let taskService: TaskService | undefined;
  let taskTools: boolean | undefined;
  app.tools.onChange(() => {
    taskTools = undefined;
    if (taskOptions?.queue) tasks();
  });
  const state = resolveStateOptions(app.state);
  const worker = { tool: (name: string) => app.tools.get(name), state };
  const tasks = () =>
    (taskTools ??= app.tools.some((t) => t.task !== undefined)) ? (taskService ??= new TaskService(taskOptions ?? resolveTasksOptions(), app.logger, worker)) : undefined;
  const services: ChannelServices = {
    logger: app.logger,
    state,
    hub: app.hub,
    rounds,
    forms: app.forms,
    // A failed read inside a tool is the tool's answer to the model, not an unexpected error.
    readResource: (uri, channel) =>
      Promise.resolve()
        .then(() => app.resources.read(uri, () => channel))
        .catch((error: unknown) => {
          throw error instanceof RequestError ? new ToolError(error.message) : error;
        }),
  };

  // A session declares (and answers) the kinds the application has as it opens: a server without prompts
  // does not advertise them, and each session's server carries only the handlers it needs.
  const kinds = (): Kinds => {
    const resources = app.declare?.resources === true || !app.resources.empty;
    const prompts = app.declare?.prompts === true || !app.prompts.empty;
    return {
      tools: app.declare?.tools === true || !app.tools.empty,
      resources,
      prompts,
      completions: prompts || resources,
      logging: app.declare?.logging === true || canLog(),
      ui: (views ??= app.resources.resources.some((r) => isUiResource(r.descriptor))),
    };
  };
  const info = { name: app.info.name, version: app.info.version, ...(app.info.title ? { title: app.info.title } : {}) };

  const requestState = { verify: rounds.verify };
  const options = (declared: Kinds) => ({
    capabilities: capabilities(declared),
    requestState,
    ...(app.instructions ? { instructions: app.instructions } : {}),
  });

  const factory = (connection?: Connection) => {
    const declared = kinds();
    const server = new ReflectServer(info, options(declared));
    server.hub = app.hub;
    server.hears = (uri) =>
      mayHearOf(app, uri, () => new CallerChannel({ ...(connection?.auth ? { auth: connection.auth } : {}), protocolVersion: server.getNegotiatedProtocolVersion() }));
    const runtime: SessionRuntime = {
      app,
      server,
      session: app.hub.open(server),
      rounds,
      services,
      ...(cacheHints ? { cacheHints } : {}),
      ...(connection?.auth ? { auth: connection.auth } : {}),
      connection: connection ?? {},
      ...(declared.tools && tasks() ? { tasks: tasks() } : {}),
    };
    server.taskResults = runtime.tasks !== undefined; // before tools/call is registered: it reads this
    if (declared.tools) answerTools(runtime);
    if (runtime.tasks) answerTasks(runtime, runtime.tasks);
    if (declared.resources) answerResources(runtime);
    if (declared.prompts) answerPrompts(runtime);
    if (declared.completions) answerCompletions(runtime);
    return server;
  };
  // A durable queue's worker runs from the start, whether or not a client ever connects (a worker-only process).
  if (taskOptions?.queue) tasks();
  return Object.assign(factory, {
    hub: app.hub,
    scopesFor: (message: unknown) => scopesFor(app, message),
    scoped: () => scoped(app),
    toolVisible: async (name: string, caller: Caller = {}) => toolVisible(app, name, () => new CallerChannel(caller)),
    callerOf,
    listenBus: (onerror?: (error: Error) => void) => new CallerBus((uri, caller) => mayHearOf(app, uri, () => new CallerChannel(caller)), onerror),
    paramHeaders: () => paramHeaderMap(app, app.logger),
    close: async () => taskService?.close(),
    sessionEnded: async (sessionId: string) => {
      await taskService?.sessionEnded(sessionId).catch((error: unknown) => {
        app.logger.error(`Could not drop the tasks of ended session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`);
      });
    },
  });
}

function callerOf(request: Request, authInfo?: AuthInfo, body?: unknown): Caller {
  const message = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as { id?: unknown; params?: { _meta?: unknown } }) : undefined;
  const meta = message?.params?._meta;
  const id = message?.id;
  return {
    ...(authInfo ? { auth: fromAuthInfo(authInfo) } : {}),
    headers: request.headers,
    signal: request.signal,
    ...(typeof meta === 'object' && meta !== null ? { meta: meta as Record<string, unknown> } : {}),
    ...(typeof id === 'string' || typeof id === 'number' ? { requestId: id } : {}),
  };
}

const CACHEABLE = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'];

/** `forRoot({ cacheHints })` checked at bootstrap: known operations, valid hints. */
function checkedCacheHints(given: Readonly<Record<string, unknown>> | undefined): Record<string, CacheHint> | undefined {
  if (given === undefined) return undefined;
  const checked: Record<string, CacheHint> = {};
  for (const [method, hint] of Object.entries(given)) {
    const where = `McpModule.forRoot({ cacheHints: { '${method}' } })`;
    if (!CACHEABLE.includes(method)) {
      throw new BootstrapError(
        BootstrapErrorCode.InvalidOption,
        `Cannot use the cache hint of ${where}: '${method}' is not a cacheable operation.\nFix: use one of ${CACHEABLE.map((m) => `'${m}'`).join(', ')}.`,
      );
    }
    const valid = checkCacheHint(hint as CacheHint | undefined, where, `cacheHints: { '${method}': { ttlMs: 60_000, cacheScope: 'public' } }`);
    if (valid) checked[method] = valid;
  }
  return Object.keys(checked).length > 0 ? checked : undefined;
}
