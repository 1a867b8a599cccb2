import type { Container, ModuleRecord, ProviderRecord, RequestScope } from '../../di';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import { describeValue } from '../../errors/describe';
import type { McpMiddleware } from '../../interfaces';
import type { MethodHost, RequestHandle, RequestScopeOpener } from '../../invocation';
import { getCatch, getEnhancers, getParamMetadata, type EnhancerKind } from '../../metadata';
import { checkedScopes } from '../required-scopes';
import { NO_ENHANCERS, type ComponentEnhancers } from '../../pipeline';
import { EnhancerChain, type Resolved, type ResolvedFilter } from './enhancer-chain';
import { RequestScope as Scope } from '../../di';

/** The method each kind of enhancer must have, and how messages name it. */
const ROLES = {
  guards: { method: 'canActivate', what: 'a guard', signature: 'canActivate(context)' },
  interceptors: { method: 'intercept', what: 'an interceptor', signature: 'intercept(context, next)' },
  pipes: { method: 'transform', what: 'a pipe', signature: 'transform(value, metadata)' },
  filters: { method: 'catch', what: 'an exception filter', signature: 'catch(exception, host)' },
  middleware: { method: undefined, what: 'a middleware', signature: 'onRequest(context, next) or onCallTool(context, next), …' },
} as const;
type Role = keyof typeof ROLES;
const MIDDLEWARE_HOOKS = ['onRequest', 'onCallTool', 'onListTools', 'onReadResource', 'onListResources', 'onListResourceTemplates', 'onGetPrompt', 'onListPrompts', 'onComplete', 'onListSkills', 'onGetSkill', 'onReadDirectory'];

/** Global enhancers: from `forRoot()` (built in the root module) and from APP_* providers. */
export interface GlobalEnhancerRefs {
  readonly guards?: readonly unknown[];
  readonly interceptors?: readonly unknown[];
  readonly pipes?: readonly unknown[];
  readonly filters?: readonly unknown[];
  readonly middleware?: readonly unknown[];
}

/** A request scope opened for one call; resolvers read the container's scope from it. */
class ScopeHandle implements RequestHandle {
  constructor(
    readonly scope: RequestScope,
    private readonly container: Container,
  ) {}
  run<T>(fn: () => T): T {
    return this.container.runInRequest(this.scope, fn);
  }
}

/**
 * The container's request scope behind a handle. Handles are opaque to the pipeline and belong to the host that
 * opened them: one of another host (a Nest host's, say) is refused with a clear error, never read as ours.
 */
function scopeOf(handle: RequestHandle): RequestScope {
  if (handle instanceof ScopeHandle) return handle.scope;
  throw new TypeError(
    'Cannot resolve a request-scoped provider of the standalone container: the request handle was opened by another host. ' +
      'A host resolves only the handles it opened itself (RequestScopeOpener of the same host).',
  );
}

/** Resolves `record` in the request scope of the handle a pipeline opened. */
export function perRequest(container: Container, record: ProviderRecord): (handle: RequestHandle) => unknown {
  return (handle) => container.resolveInRequest(record, scopeOf(handle));
}

/**
 * Turns the enhancers named in decorators and options into instances, once at bootstrap: classes are built
 * by the container in the module of the class they decorate (constructor injection; request-scoped ones per
 * request), instances are used as given; anything else fails the bootstrap with a fix.
 */
export class EnhancerResolver {
  private readonly cache = new Map<ModuleRecord, Map<Function, Resolved<unknown>>>();
  /** By class, weakly: a class built at run time (a proxied remote's catalogue, new at each change) goes when it is no longer served. */
  private readonly classes = new Map<ModuleRecord, WeakMap<Function, ClassLevel>>();
  /** No global enhancer at all. */
  private readonly plain: boolean;
  private readonly globals: { [K in EnhancerKind]: readonly Resolved<any>[] };
  private readonly globalFilters: readonly ResolvedFilter[];
  readonly middleware: readonly McpMiddleware[];
  readonly openScope: RequestScopeOpener;

  constructor(
    private readonly container: Container,
    given: GlobalEnhancerRefs,
    multi: { [K in EnhancerKind | 'middleware']: readonly ProviderRecord[] },
  ) {
    this.openScope = (context) => new ScopeHandle(new Scope({ context }), container);
    const root = container.root;
    const global = (kind: EnhancerKind) => [
      ...(given[kind] ?? []).map((ref, i) => this.resolve(kind, ref, root, `McpModule.forRoot({ ${kind} }) entry #${i}`)),
      ...multi[kind].map((record) => this.fromProvider(kind, record)),
    ];
    this.globals = { guards: global('guards'), interceptors: global('interceptors'), pipes: global('pipes'), filters: global('filters') };
    this.globalFilters = this.globals.filters.map((filter) => ({ filter, catches: this.catches(filter) }));
    this.plain = Object.values(this.globals).every((list) => list.length === 0);
    const middleware = [
      ...(given.middleware ?? []).map((ref, i) => this.resolve('middleware', ref, root, `McpModule.forRoot({ middleware }) entry #${i}`)),
      ...multi.middleware.map((record) => this.fromProvider('middleware', record)),
    ];
    this.middleware = middleware.map((m) => {
      if (m.instance) return m.instance as McpMiddleware;
      throw new BootstrapError(
        BootstrapErrorCode.InvalidEnhancer,
        `Cannot use ${m.name} as a middleware: it is request-scoped, and middleware is built once for the application.\n` +
          `Fix: make ${m.name} a singleton, and read per-request data from context.context in its hooks.`,
      );
    });
  }

  /** Global, class and method enhancers of `target.method` (and its parameters' pipes), in running order. */
  forMethod(component: MethodHost, module: ModuleRecord, method: string): ComponentEnhancers {
    const { target } = component;
    const where = `${target.name}.${method}`;
    const atClass = this.classLevel(target, module, where);
    const requiredScopes = checkedScopes(component, method);
    if (this.plain && atClass.plain && !requiredScopes && !hasMethodEnhancers(target, method)) return NO_ENHANCERS; // the common case, shared
    const at = (kind: EnhancerKind) => [
      ...atClass[kind],
      ...getEnhancers(kind, target, method).map((ref, i) => this.resolve(kind, ref, module, `@${decoratorOf(kind)}() entry #${i} on ${where}`)),
    ];
    const parameterPipes = new Map<number, Resolved<any>[]>();
    for (const entry of getParamMetadata(target, method)) {
      if (!entry || entry.kind === 'ctx' || !entry.pipes?.length) continue;
      parameterPipes.set(
        entry.index,
        entry.pipes.map((ref, i) => this.resolve('pipes', ref, module, `pipe #${i} of parameter #${entry.index} of ${where}`)),
      );
    }
    const local = at('filters');
    return new EnhancerChain({
      guards: [...this.globals.guards, ...at('guards')],
      interceptors: [...this.globals.interceptors, ...at('interceptors')],
      pipes: [...this.globals.pipes, ...at('pipes')],
      parameterPipes,
      // The most specific filter first: method, then class, then global.
      filters: [...local.reverse().map((filter) => ({ filter, catches: this.catches(filter) })), ...this.globalFilters],
      ...(requiredScopes ? { requiredScopes } : {}),
    });
  }

  /** The class-level enhancers of `target`, resolved once per class and module (messages name the first method). */
  private classLevel(target: Function, module: ModuleRecord, where: string): ClassLevel {
    let byModule = this.classes.get(module);
    if (!byModule) this.classes.set(module, (byModule = new WeakMap()));
    let found = byModule.get(target);
    if (!found) {
      const of = (kind: EnhancerKind) =>
        getEnhancers(kind, target).map((ref, i) => this.resolve(kind, ref, module, `@${decoratorOf(kind)}() entry #${i} on class ${target.name} (for ${where})`));
      const level = { guards: of('guards'), interceptors: of('interceptors'), pipes: of('pipes'), filters: of('filters') };
      found = { ...level, plain: Object.values(level).every((list) => list.length === 0) };
      byModule.set(target, found);
    }
    return found;
  }

  private fromProvider(role: Role, record: ProviderRecord): Resolved<any> {
    const type = record.recipe.kind === 'class' ? record.recipe.useClass : undefined;
    if (record.requestScoped) {
      return { name: record.owner, type, resolve: perRequest(this.container, record) as never };
    }
    const instance = record.instance as object | undefined;
    return this.check(role, { name: record.owner, type: type ?? instance?.constructor, instance }, record.owner, `the provider ${record.owner}`);
  }

  private resolve(role: Role, ref: unknown, module: ModuleRecord, where: string): Resolved<any> {
    if (typeof ref === 'function' && ref.prototype) {
      let known = this.cache.get(module)?.get(ref);
      if (!known) {
        const cls = ref as new (...args: unknown[]) => unknown;
        this.checkClass(role, cls, where);
        const built = this.container.instanceFor(module, cls);
        known =
          'perRequest' in built
            ? { name: cls.name, type: cls, resolve: (handle: RequestHandle) => built.perRequest(scopeOf(handle)) }
            : { name: cls.name, type: cls, instance: built.instance };
        if (!this.cache.has(module)) this.cache.set(module, new Map());
        this.cache.get(module)!.set(ref, known);
      }
      return known;
    }
    if (typeof ref === 'object' && ref !== null) {
      return this.check(role, { name: ref.constructor?.name ?? 'object', type: ref.constructor, instance: ref }, describeValue(ref), where);
    }
    throw new BootstrapError(BootstrapErrorCode.InvalidEnhancer, notEnhancerMessage(role, describeValue(ref), where));
  }

  /** A class (its prototype) or an instance must have its role's method: else the bootstrap fails, naming where. */
  private checkClass(role: Role, cls: Function, where: string): void {
    if (!fills(role, cls.prototype)) throw new BootstrapError(BootstrapErrorCode.InvalidEnhancer, missingMethodMessage(role, `class ${cls.name}`, where));
  }

  private check<T extends Resolved<unknown>>(role: Role, resolved: T, name: string, where: string): T {
    if (resolved.instance && !fills(role, resolved.instance)) {
      throw new BootstrapError(BootstrapErrorCode.InvalidEnhancer, missingMethodMessage(role, name, where));
    }
    return resolved;
  }

  private catches(filter: Resolved<unknown>): readonly Function[] {
    return (filter.type && getCatch(filter.type)) ?? [];
  }
}

/** Whether `target` has the method of `role` (for middleware: at least one hook). */
function fills(role: Role, target: object): boolean {
  const { method } = ROLES[role];
  const has = (name: string) => typeof (target as Record<string, unknown>)[name] === 'function';
  return method ? has(method) : MIDDLEWARE_HOOKS.some(has);
}

type ClassLevel = { readonly [K in EnhancerKind]: readonly Resolved<any>[] } & { readonly plain: boolean };

const KINDS: readonly EnhancerKind[] = ['guards', 'interceptors', 'pipes', 'filters'];

/** Whether the method, or one of its parameters, names an enhancer. */
function hasMethodEnhancers(target: Function, method: string): boolean {
  return KINDS.some((kind) => getEnhancers(kind, target, method).length > 0) || getParamMetadata(target, method).some((p) => p && p.kind !== 'ctx' && p.pipes?.length);
}

function decoratorOf(kind: EnhancerKind): string {
  return { guards: 'UseGuards', interceptors: 'UseInterceptors', pipes: 'UsePipes', filters: 'UseFilters' }[kind];
}

function notEnhancerMessage(role: Role, what: string, where: string): string {
  const { what: kind, signature } = ROLES[role];
  return (
    `Cannot use ${what} as ${kind} (${where}): ${kind} is a class (built by the container) or an object with ${signature}.\n` +
    (what === 'undefined' ? `Cause: undefined here usually means a circular import: the class was not defined yet when the decorator ran.\n` : '') +
    `Fix: pass the class itself, e.g. @${role === 'middleware' ? 'McpModule.forRoot({ middleware: [MyMiddleware] })' : `${decoratorOf(role as EnhancerKind)}(MyClass)`}, or an instance of it.`
  );
}

function missingMethodMessage(role: Role, what: string, where: string): string {
  const { what: kind, signature } = ROLES[role];
  return `Cannot use ${what} as ${kind} (${where}): it has no ${signature} method.\nFix: implement ${signature} in it, or give it where ${kind === 'a pipe' ? 'pipes' : `${kind.replace(/^an? /, '')}s`} are expected.`;
}
