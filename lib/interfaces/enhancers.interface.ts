import type { Context, McpTransportKind } from '../context';

export type { McpTransportKind };
import type { McpAuth } from './auth.interface';
import type { Constructor } from './class.interface';

/** The MCP methods that run through the pipeline. */
export type McpMethod =
  | 'tools/call'
  | 'tools/list'
  | 'resources/read'
  | 'resources/list'
  | 'resources/templates/list'
  | 'prompts/get'
  | 'prompts/list'
  | 'completion/complete'
  | 'skills/list'
  | 'skills/get'
  | 'resources/directory/read';

/** The kinds of component a pipeline serves. */
export type McpComponentKind = 'tool' | 'resource' | 'resource-template' | 'resource-list' | 'prompt' | 'completion';

/** The arguments of an MCP request, the RPC way (NestJS's `RpcArgumentsHost`). */
export interface RpcArgumentsHost {
  /** The request's arguments (tool arguments, template variables, prompt arguments); undefined during a list. */
  getData<T = Record<string, unknown> | undefined>(): T;
  /** The request's {@link Context}. */
  getContext<T = Context>(): T;
}

/** What an exception filter receives (NestJS's `ArgumentsHost`): `getType()` is `'mcp'`. */
export interface ArgumentsHost {
  /** `[arguments, context]`. */
  getArgs<T extends unknown[] = [Record<string, unknown> | undefined, Context]>(): T;
  getArgByIndex<T = unknown>(index: number): T;
  switchToRpc(): RpcArgumentsHost;
  getType<T extends string = 'mcp'>(): T;
}

/**
 * The request a guard, interceptor or filter is looking at, with NestJS's shape (`getClass()`,
 * `getHandler()`, `getArgs()`, `getType()`, `switchToRpc()`) plus what MCP adds.
 */
export interface ExecutionContext extends ArgumentsHost {
  /** The class that declares the component method. */
  getClass<T = unknown>(): Constructor<T>;
  /** The component method itself (where `SetMetadata()` on a method writes). */
  getHandler(): Function;
  /** The MCP method being served; during a list, the list method (`tools/list`, …). */
  readonly method: McpMethod;
  /** `'call'` while serving the component, `'list'` while deciding whether a list shows it. */
  readonly phase: 'call' | 'list';
  readonly kind: McpComponentKind;
  /** The component's name (tool, prompt, resource or template name; for a completer, its target and argument). */
  readonly name: string;
  /** The request's Context: client, session, auth, headers, logging, progress, signal. */
  readonly context: Context;
  /** The verified identity of the caller (a bearer token over HTTP, or the `auth` of a stdio/in-memory connection). */
  readonly auth: McpAuth | undefined;
  /** The transport session (HTTP), or undefined. */
  readonly sessionId: string | undefined;
}

/**
 * Decides whether the current caller may use a component. Returning false hides the component from its list
 * and answers a call as if it did not exist; throwing (a `ToolError` with a hint, say) answers with that error.
 */
export interface CanActivate {
  canActivate(context: ExecutionContext): boolean | Promise<boolean>;
}

/** The rest of the pipeline, as an interceptor sees it: `await next.handle()` runs it and yields the method's value. */
export interface CallHandler<T = unknown> {
  handle(): Promise<T>;
}

/**
 * Wraps the call of a component: code before `next.handle()`, the call itself (validation, pipes, the
 * method), code after it. Promise-based: `next.handle()` is a promise, not an Observable.
 */
export interface McpInterceptor<T = unknown, R = unknown> {
  intercept(context: ExecutionContext, next: CallHandler<T>): R | Promise<R>;
}

/** Which argument a pipe is transforming. */
export interface ArgumentMetadata {
  /** `param`: one `@Param()`; `args`: the `@Args()` DTO; `custom`: a `createParamDecorator()` value. */
  readonly type: 'param' | 'args' | 'custom';
  /** The parameter's reflected type (its class), when TypeScript emitted one. */
  readonly metatype?: Function;
  /** The argument's name (`@Param('city')` → `'city'`); the data of a custom decorator. */
  readonly data?: unknown;
  /** The position of the parameter in the method. */
  readonly index: number;
}

/** Transforms (or rejects) one argument after validation, before the method runs. */
export interface PipeTransform<T = any, R = any> {
  transform(value: T, metadata: ArgumentMetadata): R | Promise<R>;
}

/**
 * Handles what the pipeline threw (a guard, pipe, interceptor or the method). Return a value to answer with
 * it (for tools, converted like a method's return value), or throw (a `ToolError` for a message the model
 * reads). Mark the class with `@Catch(ErrorClass, …)` to choose what it handles.
 */
export interface ExceptionFilter<T = any> {
  catch(exception: T, host: ArgumentsHost): unknown;
}

/** A guard, interceptor, pipe or filter as the decorators take it: a class (built by the container) or an instance. */
export type EnhancerRef<T> = Constructor<T> | T;

/** What a middleware sees of one request. */
export interface MiddlewareContext<P = Record<string, unknown>> {
  readonly method: McpMethod;
  /** The request's params as the client sent them (`name` and `arguments` for tools/call, `uri`, `cursor`, …). */
  readonly params: P;
  /** The request's Context (built when first read). */
  readonly context: Context;
}

/** Runs the rest of the chain; pass a changed context (`{ ...ctx, params }`) to change what runs next. */
export type NextMiddleware = (context?: MiddlewareContext) => Promise<unknown>;

/** One hook of a middleware: wraps `next`, returns the (possibly changed) result of the request. */
export type MiddlewareHook = (context: MiddlewareContext<any>, next: NextMiddleware) => Promise<unknown> | unknown;

/**
 * Middleware wraps whole MCP requests, lists included (an onion: the first registered is the outermost).
 * `onRequest` runs for every method; the others for theirs, inside `onRequest`.
 */
export interface McpMiddleware {
  onRequest?: MiddlewareHook;
  onCallTool?: MiddlewareHook;
  onListTools?: MiddlewareHook;
  onReadResource?: MiddlewareHook;
  onListResources?: MiddlewareHook;
  onListResourceTemplates?: MiddlewareHook;
  onGetPrompt?: MiddlewareHook;
  onListPrompts?: MiddlewareHook;
  onComplete?: MiddlewareHook;
  /** `skills/list` (skills, SEP-2640: docs/skills.md). */
  onListSkills?: MiddlewareHook;
  /** `skills/get`. */
  onGetSkill?: MiddlewareHook;
  /** `resources/directory/read` (a skill's folder). */
  onReadDirectory?: MiddlewareHook;
}

/** A session that ended, as a {@link McpSessionObserver} is told of it. */
export interface McpSessionEnd {
  /** The transport of the session: `'stdio'`, `'http'` (a stateful 2025-era HTTP session); undefined in memory. */
  readonly transport?: McpTransportKind;
  /** The protocol revision the session spoke, when it got that far. */
  readonly protocolVersion?: string;
  /** How long it lasted, from its first server to the close of its last (milliseconds, monotonic clock). */
  readonly durationMs: number;
}

/**
 * An interceptor or middleware, given as an instance to `McpModule.forRoot({ interceptors | middleware })`, that
 * is told when each session ends: a stdio or in-memory connection, a stateful HTTP session. A 2026-07-28 HTTP
 * request (which has no session) and a stateless HTTP request are not sessions.
 */
export interface McpSessionObserver {
  onSessionEnd(session: McpSessionEnd): void;
}
