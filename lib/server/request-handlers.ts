import { ProtocolError, ProtocolErrorCode, type CallToolResult, type RequestMethod, type RequestTypeMap, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CompletionRef } from '../completions';
import { Context, type RequestChannel } from '../context';
import type { CacheHint, McpMethod, MiddlewareContext } from '../interfaces';
import { answerFailure, requestFailure } from '../invocation';
import { isGuarded, pageFor, runMiddleware } from '../pipeline';
import { resourceNotFound, subscriptionLimitMessage } from '../resources';
import { unknownToolMessage, type ToolDefinition } from '../tools';
import { completionTargetVisible, resourceVisible, toolVisible } from './visibility';
import { checkParamHeaders, HEADER_MISMATCH, paramHeaderMap, type ParamHeaderRejection } from './param-headers';
import { toWireError } from './error-mapping';
import { checkedHeader, PARAM_HEADERS_AGREE, PARAM_HEADERS_HIDDEN } from './peer-headers';
import { SdkRequestChannel } from './request-channel';
import { isModern } from './server-hub';
import { taskCall } from './tasks/tasks-handlers';
import { CALL_TOOL, FULL_TOOL_LIST, SEARCH_TOOLS, searchListPage, searchTools, unwrapCallTool } from './tool-search';
import type { SessionRuntime } from './session-runtime';


/**
 * Registers a handler whose answer the SDK checks on the way out: our results are built from compiled
 * descriptors the SDK's result types cannot see, so the one cast between the two layers is here.
 */
function handle<M extends RequestMethod>(server: Server, method: M, handler: (request: RequestTypeMap[M], ctx: ServerContext) => unknown): void {
  server.setRequestHandler(method, handler as never);
}

/** The Context's view of one request (opened only when something needs it). */
function openChannel(runtime: SessionRuntime, ctx: ServerContext, progressToken?: unknown, target?: string): RequestChannel {
  return new SdkRequestChannel(ctx, runtime.server, progressToken as string | number | undefined, runtime.services, target, runtime.connection);
}

// One wire result per page, built once: pages are recomputed only when the catalogue changes.
const LIST_RESULTS = new WeakMap<object, Record<string, unknown>>();

function listResult(page: { items: readonly unknown[]; nextCursor?: string }, key: string, runtime?: SessionRuntime, method?: string, guarded = false): never {
  let result = LIST_RESULTS.get(page);
  if (!result) {
    result = { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    LIST_RESULTS.set(page, result);
  }
  const hint = runtime && method ? runtime.cacheHints?.[method] : undefined;
  if (!hint || !isModern(runtime!.server)) return result as never;
  let hinted = HINTED_RESULTS.get(result);
  if (!hinted) HINTED_RESULTS.set(result, (hinted = forCaller({ ...result, ...hint }, guarded)));
  return hinted as never;
}

/**
 * A result that depends on the caller (a guarded component in the list, a guarded resource read) goes out
 * 'private' even where 'public' is configured: a shared cache would hand it to callers the guards refuse.
 */
function forCaller<T extends { cacheScope?: string }>(result: T, guarded: boolean): T {
  return guarded && result.cacheScope === 'public' ? { ...result, cacheScope: 'private' } : result;
}

// The same pages with the configured cache hint, for 2026-07-28 requests.
const HINTED_RESULTS = new WeakMap<object, Record<string, unknown>>();

/**
 * A cacheable result with its hint on 2026-07-28 (SEP-2549): the component's own fields, then the configured
 * ones for the method; the SDK fills what is left with `ttlMs: 0`, `cacheScope: 'private'`.
 */
function withCacheHint<T extends object>(runtime: SessionRuntime, method: string, result: T, own?: CacheHint, guarded = false): T {
  const configured = runtime.cacheHints?.[method];
  if ((!configured && !own) || !isModern(runtime.server)) return result;
  return forCaller({ ...result, ...configured, ...own }, guarded);
}

/**
 * Library errors become JSON-RPC errors with the right code; anything else (a middleware's crash) is logged
 * and masked like a component's: nothing internal leaks.
 */
export function wire<T>(runtime: SessionRuntime, method: McpMethod, work: () => T | Promise<T>): Promise<T> {
  return Promise.resolve()
    .then(work)
    .catch((error: unknown) => {
      throw toWireError(requestFailure(error, `serving ${method}`, 'middleware', runtime.app.policy));
    });
}

/** Runs `terminal` inside the method's middleware (when there is any), with a lazily built Context. */
export function through<P extends object, T>(
  runtime: SessionRuntime,
  method: McpMethod,
  params: P,
  ctx: ServerContext,
  terminal: (params: P) => T | Promise<T>,
): T | Promise<T> {
  const hooks = runtime.app.middleware(method);
  if (hooks.length === 0) return terminal(params);
  let context: Context | undefined;
  const envelope: MiddlewareContext<P> = {
    method,
    params,
    get context() {
      return (context ??= new Context(openChannel(runtime, ctx)));
    },
  };
  return runMiddleware(hooks, envelope as MiddlewareContext, (current) => Promise.resolve(terminal(current.params as P))) as Promise<T>;
}

export function answerTools(runtime: SessionRuntime): void {
  const { app, server } = runtime;
  const search = app.toolSearch;
  handle(server, 'tools/list', (request, ctx) =>
    wire(runtime, 'tools/list', () =>
      through(runtime, 'tools/list', request.params ?? {}, ctx, async (params) => {
        const open = () => openChannel(runtime, ctx);
        // Tool search (docs/composition.md#tool-search): the search tools, unless the client asks for every tool.
        const page = search && params._meta?.[FULL_TOOL_LIST] !== true ? searchListPage(app, search, params.cursor, open) : pageFor(app.tools, params.cursor, open, 'tools/list', app.openScope);
        return listResult(await page, 'tools', runtime, 'tools/list', isGuarded(app.tools));
      }),
    ),
  );

  handle(server, 'tools/call', (request, ctx) => {
    let { params } = request;
    // call_tool is the call of the tool it names, from here on (middleware, guards, scopes, validation, tasks).
    const wrapped = search !== undefined && params.name === CALL_TOOL;
    if (wrapped) {
      const unwrapped = unwrapCallTool(params);
      if ('refused' in unwrapped) return unwrapped.refused;
      params = unwrapped.params;
    }
    const terminal = (current: ToolCall) =>
      search && current.name === SEARCH_TOOLS ? wire(runtime, 'tools/call', () => searchTools(app, search, current.arguments, () => openChannel(runtime, ctx))) : callTool(runtime, ctx, current, wrapped);
    if (app.middleware('tools/call').length === 0) return terminal(params);
    return Promise.resolve()
      .then(() => through(runtime, 'tools/call', params, ctx, terminal))
      .catch((error: unknown) => toolCallFailure(runtime, params.name, error));
  });
}

type ToolCall = { name: string; arguments?: Record<string, unknown>; _meta?: { progressToken?: unknown } };

/** `wrapped`: named by a `call_tool`, whose request carries no `Mcp-Param-*` headers of the tool (SEP-2243). */
function callTool(runtime: SessionRuntime, ctx: ServerContext, params: ToolCall, wrapped = false): unknown {
  const tool = runtime.app.tools.get(params.name);
  // Spec 2025-11-25 server/tools#error-handling: unknown tools are a protocol error (-32602).
  if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, unknownToolMessage(params.name));
  // The HTTP endpoint checks the Mcp-Param-* headers before dispatch and says how it went: not checked again.
  const checked = ctx.http?.req?.headers.get(checkedHeader());
  if (checked === PARAM_HEADERS_HIDDEN && !wrapped) return turnedAway(runtime, ctx, tool);
  const mismatch = ctx.http?.req && checked !== PARAM_HEADERS_AGREE && isModern(runtime.server) && !wrapped ? headerMismatch(runtime, tool.name, params.arguments, ctx.http.req.headers) : undefined;
  if (mismatch) return refuseMismatch(runtime, ctx, tool, mismatch);
  if (!tool.task) return plainCall(runtime, ctx, tool, params);
  if (!tool.pipeline.guarded) return taskOrCall(runtime, ctx, tool, params);
  // A task exists before its run asks the guards: a caller they turn away would learn of the tool from the task
  // (or from "runs only as a task"). So they are asked first, once, and the call goes on without them.
  const { pipeline } = tool;
  return pipeline
    .admit(params.arguments, () => openChannel(runtime, ctx, params._meta?.progressToken, `tool:${tool.name}`), undefined)
    .then((refused) => (refused ? convert(runtime.server, tool.descriptor.outputSchema, refused.answer) : taskOrCall(runtime, ctx, { ...tool, pipeline: pipeline.admitted() }, params)))
    .catch(rethrowWire);
}

function headerMismatch(runtime: SessionRuntime, name: string, args: unknown, headers: Headers): ParamHeaderRejection | undefined {
  const declarations = paramHeaderMap(runtime.app, runtime.app.logger).get(name);
  return declarations && checkParamHeaders(declarations, args, headers);
}

/**
 * SEP-2243: a 2026-07-28 call whose `Mcp-Param-*` headers disagree with its arguments never runs. The HTTP
 * endpoint refuses it before dispatch (400, -32020); for a tool the caller may not see, naming the header would
 * reveal the tool, so an endpoint that lets such a call through (`HttpServing.toolVisible`) leaves it to this
 * handler, which answers it as this caller's call of the tool is answered without running it: unknown tool (a
 * guard's no), or the scope refusal. A tool the caller may see gets -32020 here too, in the response.
 */
function refuseMismatch(runtime: SessionRuntime, ctx: ServerContext, tool: ToolDefinition, mismatch: ParamHeaderRejection): Promise<unknown> {
  const open = () => openChannel(runtime, ctx);
  return Promise.resolve(toolVisible(runtime.app, tool.name, open))
    .then((visible) => {
      if (visible) throw new ProtocolError(HEADER_MISMATCH, mismatch.message, mismatch.data);
      return turnedAway(runtime, ctx, tool);
    })
    .catch(rethrowWire);
}

/** The answer to a call of `tool` this caller may not see, made without running it (unknown tool, or the scope refusal). */
function turnedAway(runtime: SessionRuntime, ctx: ServerContext, tool: ToolDefinition): Promise<unknown> {
  return Promise.resolve()
    .then(() => convert(runtime.server, tool.descriptor.outputSchema, tool.pipeline.turnedAway(openChannel(runtime, ctx).auth, undefined)))
    .catch(rethrowWire);
}

/** A task tool's call: as a task when the call asks for one (or the tool requires it), else an ordinary call. */
function taskOrCall(runtime: SessionRuntime, ctx: ServerContext, tool: ToolDefinition, params: ToolCall): unknown {
  const asTask = taskCall(runtime, ctx, tool, params, (outcome) => convert(runtime.server, tool.descriptor.outputSchema, outcome));
  return asTask ? asTask.catch(rethrowWire) : plainCall(runtime, ctx, tool, params);
}

function plainCall(runtime: SessionRuntime, ctx: ServerContext, tool: ToolDefinition, params: ToolCall): unknown {
  const { server, rounds } = runtime;
  const { name, arguments: args, _meta } = params;
  const { pipeline } = tool;
  const schema = tool.descriptor.outputSchema;
  // Only a tool that receives a Context can ask the client for input (and be re-entered); without one, no
  // guard can deny it either (a guard reads the Context), so its failures are all results.
  if (!pipeline.takesContext) {
    let outcome: ReturnType<typeof pipeline.call>;
    try {
      outcome = pipeline.call(args, pipeline.needsChannel ? () => openChannel(runtime, ctx) : undefined, undefined);
    } catch (error) {
      rethrowWire(error); // a RequestError the tool threw: its JSON-RPC error
    }
    return outcome instanceof Promise ? outcome.then((value) => convert(server, schema, value), rethrowWire) : convert(server, schema, outcome);
  }
  const target = `tool:${name}`;
  const open = () => openChannel(runtime, ctx, _meta?.progressToken, target);
  return rounds.run(ctx, target, async () => convert(server, schema, await pipeline.call(args, open, undefined))).catch(rethrowWire);
}

function rethrowWire(error: unknown): never {
  throw toWireError(error);
}

/** What a middleware of tools/call threw: a tool answer (isError) unless it is a protocol error. */
function toolCallFailure(runtime: SessionRuntime, name: string, error: unknown): unknown {
  const answer = answerFailure(error, { kind: 'tool', name, where: 'a middleware of tools/call' }, runtime.app.policy);
  if ('error' in answer) throw toWireError(answer.error);
  return answer.result;
}

// The codec's projection only matters for structured results (the 2025-era {result} wrap).
function convert(server: Server, outputSchema: object | undefined, outcome: unknown): never {
  const result = outcome as CallToolResult;
  return (result.structuredContent === undefined ? result : server.projectCallToolResult(result, outputSchema as never)) as never;
}

export function answerResources(runtime: SessionRuntime): void {
  const { app, server, session, rounds } = runtime;
  handle(server, 'resources/list', (request, ctx) =>
    wire(runtime, 'resources/list', () =>
      through(runtime, 'resources/list', request.params ?? {}, ctx, async (params) => {
        const page = await app.resources.list(params.cursor, () => openChannel(runtime, ctx));
        const items = { resources: page.items as never[], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
        return withCacheHint(runtime, 'resources/list', items, undefined, app.resources.listGuarded);
      }),
    ),
  );

  handle(server, 'resources/templates/list', (request, ctx) =>
    wire(runtime, 'resources/templates/list', () =>
      through(runtime, 'resources/templates/list', request.params ?? {}, ctx, async (params) =>
        listResult(
          await app.resources.templatePage(params.cursor, () => openChannel(runtime, ctx)),
          'resourceTemplates',
          runtime,
          'resources/templates/list',
          isGuarded(app.resources.templates),
        ),
      ),
    ),
  );

  handle(server, 'resources/read', (request, ctx) =>
    wire(runtime, 'resources/read', () =>
      through(runtime, 'resources/read', request.params, ctx, (params) => {
        const target = `resource:${params.uri}`;
        return rounds.run(ctx, target, async () => {
          const served = app.resources.serve(params.uri, () => openChannel(runtime, ctx, undefined, target));
          return withCacheHint(runtime, 'resources/read', { contents: await served.contents }, served.cacheHint, served.guarded);
        });
      }),
    ),
  );

  handle(server, 'resources/subscribe', async (request, ctx) => {
    if (!server.getNegotiatedProtocolVersion()) {
      // Stateless HTTP, 2025 era: no session to remember the subscription nor a stream to send updates on.
      throw new ProtocolError(
        ProtocolErrorCode.InvalidRequest,
        'resources/subscribe needs a session, and this stateless server keeps none: poll resources/read, ' +
          'or connect to a stateful endpoint (or with a 2026-07-28 client, which subscribes with subscriptions/listen).',
      );
    }
    const { uri } = request.params;
    const refusal = app.resources.refuseSubscription(uri);
    if (refusal) throw toWireError(refusal);
    // A resource the caller may not see (its scopes, its guards) is answered as one that does not exist, and
    // no update of it is ever sent to this session.
    if (!(await resourceVisible(app, uri, () => openChannel(runtime, ctx)))) throw toWireError(resourceNotFound(uri));
    const held = (session.subscriptions ??= new Set());
    // Re-subscribing to a URI already held takes no new place.
    if (!held.has(uri) && held.size >= app.maxSubscriptionsPerSession) {
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, subscriptionLimitMessage(uri, app.maxSubscriptionsPerSession), { uri });
    }
    held.add(uri);
    return {};
  });

  handle(server, 'resources/unsubscribe', async (request) => {
    session.subscriptions?.delete(request.params.uri);
    return {};
  });
}

export function answerPrompts(runtime: SessionRuntime): void {
  const { app, server, rounds } = runtime;
  handle(server, 'prompts/list', (request, ctx) =>
    wire(runtime, 'prompts/list', () =>
      through(runtime, 'prompts/list', request.params ?? {}, ctx, async (params) =>
        listResult(await pageFor(app.prompts, params.cursor, () => openChannel(runtime, ctx), 'prompts/list', app.openScope), 'prompts', runtime, 'prompts/list', isGuarded(app.prompts)),
      ),
    ),
  );

  handle(server, 'prompts/get', (request, ctx) =>
    wire(runtime, 'prompts/get', () =>
      through(runtime, 'prompts/get', request.params, ctx, (params) => {
        const target = `prompt:${params.name}`;
        return rounds.run(ctx, target, async () => app.prompts.render(params.name, params.arguments, () => openChannel(runtime, ctx, undefined, target)));
      }),
    ),
  );
}

export function answerCompletions(runtime: SessionRuntime): void {
  const { app, server } = runtime;
  handle(server, 'completion/complete', (request, ctx) =>
    wire(runtime, 'completion/complete', () =>
      through(runtime, 'completion/complete', request.params, ctx, async (params) => {
        const { ref, argument, context } = params;
        const target: CompletionRef = ref.type === 'ref/prompt' ? { type: 'ref/prompt', name: ref.name } : { type: 'ref/resource', uri: ref.uri };
        // A prompt or template the caller may not see (disabled, its scopes, its guards) has nothing to complete,
        // as an unknown one has not.
        if (!(await completionTargetVisible(app, target, () => openChannel(runtime, ctx)))) return { completion: { values: [] } };
        const completion = await app.completions.complete(target, argument.name, argument.value, { arguments: context?.arguments ?? {} }, () =>
          openChannel(runtime, ctx),
        );
        return { completion: { ...completion } };
      }),
    ),
  );
}
