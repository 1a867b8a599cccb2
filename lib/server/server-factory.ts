import { Server, type JSONRPCRequest, type Result, type ServerContext } from '@modelcontextprotocol/server';
import { isUiResource, UI_EXTENSIONS } from '../apps';
import { BootstrapError, BootstrapErrorCode, RequestError, ToolError } from '../errors';
import { withReadableParams } from './error-mapping';
import { InputRounds } from './input-required';
import type { CacheHint } from '../interfaces';
import { CallerChannel, mayHearOf } from './visibility';
import { isModern } from './server-hub';
import type { ProtocolApplication } from './protocol-application';
import { answerCompletions, answerPrompts, answerResources, answerTools } from './request-handlers';
import type { SessionRuntime } from './session-runtime';
import type { ChannelServices, Connection } from './request-channel';
import type { ServerHub } from './server-hub';
import { checkCacheHint } from '../resources';
import type { ResolvedStateOptions } from '../state';
import { answerTasks } from './tasks/tasks-handlers';
import type { TaskRuntime } from './tasks/task-runtime';
import { withTaskWire } from './tasks/tasks-wire';

/** The skills methods and the SDK's skills extension load with the first application that serves skills. */
const skillsHandlers = (): typeof import('./skills/skills-handlers') => require('./skills/skills-handlers') as typeof import('./skills/skills-handlers');

export type { ProtocolApplication };

export type { Connection };

type Kinds = { tools: boolean; resources: boolean; prompts: boolean; completions: boolean; logging: boolean; ui: boolean; skills?: Record<string, object> };

// One capabilities object per combination of kinds, shared by every server that declares it.
const CAPABILITIES = new Map<string, Record<string, object>>();

function capabilities(kinds: Kinds): Record<string, object> {
  const key = `${+kinds.tools}${+kinds.resources}${+kinds.prompts}${+kinds.completions}${+kinds.logging}${+kinds.ui}${JSON.stringify(kinds.skills ?? {})}`;
  let declared = CAPABILITIES.get(key);
  if (!declared) {
    declared = {
      ...(kinds.tools ? { tools: { listChanged: true } } : {}),
      ...(kinds.resources ? { resources: { subscribe: true, listChanged: true } } : {}),
      ...(kinds.prompts ? { prompts: { listChanged: true } } : {}),
      ...(kinds.completions ? { completions: {} } : {}),
      ...(kinds.logging ? { logging: {} } : {}),
      // MCP Apps (SEP-1865): a server with `ui://` views declares the extension, with the MIME type it serves.
      // Skills (SEP-2640): the extension, with directoryRead when `resources/directory/read` is served.
      ...(kinds.ui || kinds.skills ? { extensions: { ...(kinds.ui ? UI_EXTENSIONS : {}), ...kinds.skills } } : {}),
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

/** What a factory's servers share beyond the application: checked at bootstrap (lib/host/compose.ts). */
export interface ServerFactoryParts {
  /** The sessions' task service, once some tool is a task tool. */
  readonly tasks: TaskRuntime;
  /** `forRoot({ state })` with its defaults. */
  readonly state: ResolvedStateOptions;
  /** `forRoot({ cacheHints })` checked (`checkedCacheHints`). */
  readonly cacheHints?: Record<string, CacheHint>;
}

/**
 * Makes the cheap per-connection SDK `Server`: a low-level server whose handlers only read what bootstrap
 * compiled. stdio and the in-memory transport call `create()` once per connection (and the SDK once more for
 * a `server/discover` probe); HTTP once per session or per request. That is its one job: what HTTP, auth and
 * tasks need besides lives with them (transports/http-serving.ts, auth/scope-needs.ts, server/tasks/task-runtime.ts).
 */
export class ServerFactory {
  // Whether some component receives a Context (and so may log): computed once per catalogue change.
  private logs: boolean | undefined;
  // Whether some resource is an MCP Apps view: computed once per catalogue change too.
  private views: boolean | undefined;
  private readonly rounds: InputRounds;
  private readonly services: ChannelServices;
  private readonly info: { name: string; version: string; title?: string };
  private readonly requestState: { verify: InputRounds['verify'] };

  constructor(
    private readonly app: ProtocolApplication,
    private readonly parts: ServerFactoryParts,
  ) {
    const changed = (kind: 'tools' | 'prompts' | 'resources') => () => {
      this.logs = undefined;
      this.views = undefined;
      app.hub.listChanged(kind);
    };
    app.tools.onChange(changed('tools'));
    app.prompts.onChange(changed('prompts'));
    app.resources.resources.onChange(changed('resources'));
    app.resources.templates.onChange(changed('resources'));
    const rounds = (this.rounds = new InputRounds(app.stateSecret));
    this.services = {
      logger: app.logger,
      state: parts.state,
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
    this.info = { name: app.info.name, version: app.info.version, ...(app.info.title ? { title: app.info.title } : {}) };
    this.requestState = { verify: rounds.verify };
  }

  /** One SDK server for one connection (a stdio process, an in-memory pair, an HTTP session or request). */
  create(connection?: Connection): Server {
    const { app, parts } = this;
    const declared = this.kinds();
    const server = new ReflectServer(this.info, {
      capabilities: capabilities(declared),
      requestState: this.requestState,
      ...(app.instructions ? { instructions: app.instructions } : {}),
    });
    server.hub = app.hub;
    server.hears = (uri) =>
      mayHearOf(app, uri, () => new CallerChannel({ ...(connection?.auth ? { auth: connection.auth } : {}), protocolVersion: server.getNegotiatedProtocolVersion() }));
    const tasks = declared.tools ? parts.tasks.service() : undefined;
    const runtime: SessionRuntime = {
      app,
      server,
      session: app.hub.open(server, connection),
      rounds: this.rounds,
      services: this.services,
      ...(parts.cacheHints ? { cacheHints: parts.cacheHints } : {}),
      ...(connection?.auth ? { auth: connection.auth } : {}),
      connection: connection ?? {},
      ...(tasks ? { tasks } : {}),
    };
    server.taskResults = runtime.tasks !== undefined; // before tools/call is registered: it reads this
    if (declared.tools) answerTools(runtime);
    if (runtime.tasks) answerTasks(runtime, runtime.tasks);
    if (declared.resources) answerResources(runtime);
    if (declared.prompts) answerPrompts(runtime);
    if (declared.completions) answerCompletions(runtime);
    if (declared.skills && app.skills) skillsHandlers().answerSkills(runtime, app.skills);
    return server;
  }

  /** The capabilities a session opened now declares (the server card reads their extensions). */
  capabilities(): Record<string, object> {
    return capabilities(this.kinds());
  }

  // A session declares (and answers) the kinds the application has as it opens: a server without prompts
  // does not advertise them, and each session's server carries only the handlers it needs.
  private kinds(): Kinds {
    const app = this.app;
    // A server with skills serves their files as resources (SEP-2640: the extension needs the resources capability).
    const resources = app.declare?.resources === true || !app.resources.empty || app.skills?.serving === true;
    const prompts = app.declare?.prompts === true || !app.prompts.empty;
    return {
      tools: app.declare?.tools === true || !app.tools.empty,
      resources,
      prompts,
      completions: prompts || resources,
      logging: app.declare?.logging === true || this.canLog(),
      ui: (this.views ??= app.resources.resources.some((r) => isUiResource(r.descriptor))),
      ...(app.skills?.serving ? { skills: skillsHandlers().skillsCapability(app.skills) } : {}),
    };
  }

  private canLog(): boolean {
    const app = this.app;
    return (this.logs ??=
      app.tools.some((t) => t.pipeline.takesContext) ||
      app.prompts.some((p) => p.pipeline.takesContext) ||
      app.resources.usesContext() ||
      app.completions.usesContext);
  }
}

const CACHEABLE = ['tools/list', 'prompts/list', 'resources/list', 'resources/templates/list', 'resources/read'];

/** `forRoot({ cacheHints })` checked at bootstrap: known operations, valid hints. */
export function checkedCacheHints(given: Readonly<Record<string, unknown>> | undefined): Record<string, CacheHint> | undefined {
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
