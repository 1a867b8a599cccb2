import { randomBytes } from 'node:crypto';
import { RELEASE_BOUND } from '../di';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { AddedComponents, AddOptions, GeneratedMetadata, InjectionToken, McpMethod, McpSessionObserver, MiddlewareHook, Provider } from '../interfaces';
import { checkTransforms } from '../catalogue';
import { CompletionRegistry } from '../completions';
import { ElicitationForms, providedMethods, type MethodHost } from '../invocation';
import { GeneratedTypes } from '../metadata';
import { middlewareHooks } from '../pipeline';
import { PromptRegistry } from '../prompts';
import { checkedCacheHints, isProtocolError, ServerFactory, ServerHub, SkillShelf, TaskRuntime, TOOL_SEARCH_NAMES, uriMatcher, type ProtocolApplication } from '../server';
import { resolveStateOptions } from '../state';
import { resolveTasksOptions } from '../tasks';
import { HttpServing } from '../transports';
import { ResourceRegistry } from '../resources';
import { ToolRegistry } from '../tools';
import { SchemaCompiler, type ValidatorUse } from '../validation';
import type { PrecompiledValidators } from '../interfaces';
import { McpApplication, type ApplicationRegistries } from './mcp-application';
import { checkGeneratedCoverage, loadGeneratedTypes } from './generated-types';
import type { McpHost } from './host';
import type { McpModuleOptions } from './mcp-options';
import { stderrLogger } from './stderr-logger';
import { exploreHosts } from './explorer';
import { checkSchemaRefs, disabledNames, resolveToolSearch } from './served-options';
import { checkFeatureOptions } from './namespaces';
import { reportRenamedParameters } from './renamed-parameters';
import { reportUndecoratedProperties } from './undecorated-properties';
import { warnUnprovidedComponents } from './unprovided-components';

/** @internal Options of `buildApplication()`: the public ones, and what only the library's own tools pass. */
export interface BuildOptions extends McpFactoryOptions {
  /**
   * The generated metadata to use when neither `metadata` nor `McpModule.forRoot({ metadata })` gives any (the
   * CLI's `inspect` and `call`: the file `mcp-reflect generate` wrote for the entry's project). Called then only.
   */
  readonly fallbackMetadata?: () => unknown;
  /** The classes served by the application's servers, shared when it has several (the unprovided-components warning reads all). */
  readonly served?: Set<Function>;
  /** Told of every validator the application compiles (the `validators` command writes them ahead of time). */
  readonly recordValidators?: (use: ValidatorUse) => void;
}

/**
 * @internal An application, and its registries for the one who built it: the CLI (which warns about
 * unprovided components as `listen()` does), and the specs and benchmarks that measure compiled pipelines.
 * Everything else describes an application through its public `app.inspect()`.
 */
export interface BuiltApplication {
  readonly app: McpApplication;
  readonly registries: ApplicationRegistries;
}

/**
 * @internal Builds an application on a host: every component the host supplies is compiled (schema,
 * validator, pipeline with the host's enhancers, result converter) and registered, and the server factory is
 * made. Whatever supplies the instances (the standalone container, a NestJS application), this is the one way
 * an application is built.
 */
export async function composeApplication(host: McpHost, options: BuildOptions = {}): Promise<BuiltApplication> {
  try {
    return await compose(host, options);
  } catch (error) {
    throw await released(host, error);
  }
}

/**
 * The bootstrap failed: what the host's providers started is released (in reverse module order, each hook
 * bounded) before the error reaches the caller; the error stays the one thrown, the release's own failures
 * attached to it as `cleanupErrors`.
 */
async function released(host: McpHost, error: unknown): Promise<unknown> {
  const failures = host.abandon ? await host.abandon(RELEASE_BOUND).catch((failure: unknown) => [failure]) : [];
  if (failures.length > 0 && error !== null && typeof error === 'object' && Object.isExtensible(error)) {
    Object.defineProperty(error, 'cleanupErrors', { value: failures, configurable: true, writable: true });
  }
  return error;
}

async function compose(host: McpHost, options: BuildOptions): Promise<BuiltApplication> {
  const settings = host.options;
  checkNumericOptions(settings);
  const metadata = options.metadata ?? settings.metadata ?? options.fallbackMetadata?.();
  // This application's own: handed to its hosts and forms, never stored where another application reads.
  const types = metadata ? loadGeneratedTypes(metadata) : GeneratedTypes.none;
  await host.init();
  const logger = settings.logger ?? stderrLogger;
  const policy = {
    maskErrorDetails: settings.maskErrorDetails ?? true,
    logger,
    isProtocolError,
    ...(host.clientFacing ? { clientFacing: (error: unknown) => host.clientFacing!(error) } : {}),
  };
  const filter = { includeTags: settings.includeTags, excludeTags: settings.excludeTags };
  const services = { openScope: host.openScope, guardDenial: settings.guardDenial ?? 'hide', callTimeout: settings.callTimeout ?? 300_000, logger };
  // Resource URIs and prompt arguments are strings on the wire: they are always coerced (lenient).
  const validators = { precompiled: options.validators ?? settings.validators, record: options.recordValidators, compile: options.compileValidators ?? settings.compileValidators };
  const lenient = new SchemaCompiler(true, 'numeric', undefined, validators);
  checkTransforms(settings.transforms, 'McpModule.forRoot');
  const toolSearch = resolveToolSearch(settings.toolSearch);
  const toolSettings = { schemaRefs: checkSchemaRefs(settings.schemaRefs), reserved: new Set(toolSearch ? TOOL_SEARCH_NAMES : []) };
  const tools = new ToolRegistry(new SchemaCompiler(!settings.strictInputValidation, 'numeric', undefined, validators), policy, services, filter, settings.pageSize, toolSettings);
  const resources = new ResourceRegistry(lenient, uriMatcher, policy, services, filter, settings.pageSize);
  const prompts = new PromptRegistry(lenient, policy, services, filter, settings.pageSize);
  const completions = new CompletionRegistry(lenient, policy, services);
  // Every kind is built before anything is added: a failure (at bootstrap or in app.tools.add()) changes nothing.
  const undecorated = new Set<string>(); // DTO properties already named (once per application)
  const renamed = new Set<string>(); // parameters already named as bundler-renamed (once per application)
  const served = options.served ?? new Set<Function>(); // the classes whose components are served (for the unprovided-components warning)
  const register = (hosts: readonly MethodHost[], added?: AddOptions): AddedComponents => {
    const naming = added
      ? { transformsOf: () => added.transforms, where: 'app.tools.add(instance, { transforms })', root: settings.transforms }
      : { root: settings.transforms, strictRoot: true };
    const found = exploreHosts(hosts, host, naming);
    const disabled = disabledNames(found);
    const stagedTools = tools.stage(found.tools);
    const stagedResources = resources.stage(found);
    const stagedPrompts = prompts.stage(found.prompts);
    // Completers last: they name prompts and templates, which must exist by then (staged ones count).
    const stagedCompleters = completions.stage(found.completers, {
      promptArguments: (name) => (prompts.find(name) ?? stagedPrompts.find((p) => p.name === name))?.descriptor.arguments.map((a) => a.name),
      templateVariables: (uri) =>
        [...resources.templates.values(), ...stagedResources.templates].find((t) => t.uriTemplate === uri)?.matcher.variableNames,
      isExcluded: (ref) => (ref.type === 'ref/prompt' ? prompts.excluded.has(ref.name) : resources.excludedTemplates.has(ref.uri)),
    });
    const compiled = [...stagedTools, ...stagedPrompts.map((p) => p.compiled), ...stagedResources.templates.map((t) => t.compiled)];
    reportUndecoratedProperties(compiled, logger, settings.warnings, undecorated);
    reportRenamedParameters(compiled, logger, settings.warnings, renamed);
    hub.batch(() => {
      tools.addAll(stagedTools, disabled);
      resources.commit(stagedResources, disabled);
      prompts.addAll(stagedPrompts, disabled);
      completions.commit(stagedCompleters);
    });
    // A class built from a source's catalogue (a proxied remote's, new at each of its list_changed) is never among
    // the decorated classes the warning looks for: kept, it would only keep every catalogue ever served.
    for (const host of hosts) if (host.provided === undefined) served.add(host.target);
    for (const prompt of stagedPrompts) completions.addStatic({ type: 'ref/prompt', name: prompt.name }, prompt.complete);
    for (const template of stagedResources.templates) {
      completions.addStatic({ type: 'ref/resource', uri: template.uriTemplate }, template.complete);
    }
    return {
      tools: stagedTools.map((t) => t.name),
      resources: stagedResources.resources.map((r) => r.name),
      templates: stagedResources.templates.map((t) => t.name),
      prompts: stagedPrompts.map((p) => p.name),
    };
  };
  const hub = new ServerHub(logger);
  const hosts = await host.components(types);
  if (metadata) checkGeneratedCoverage(hosts, types);
  register(hosts);
  // Interceptors and middleware given as instances that observe sessions (OpenTelemetryInterceptor's session metric).
  for (const given of [...host.middleware, ...(host.options.interceptors ?? [])]) {
    if (typeof given === 'object' && given !== null && typeof (given as Partial<McpSessionObserver>).onSessionEnd === 'function') hub.observe(given as McpSessionObserver);
  }
  const hooks = new Map<McpMethod, readonly MiddlewareHook[]>();
  const middleware = (method: McpMethod) => {
    let found = hooks.get(method);
    if (!found) hooks.set(method, (found = middlewareHooks(host.middleware, method)));
    return found;
  };

  // Skills are read (and their digests computed) before any session opens; one that cannot be served fails here.
  // Providers' skills (ProvidedComponents.skills) join them on the same shelf.
  const skills = await SkillShelf.load(settings.skills ?? [], logger);
  const protocol: ProtocolApplication = {
    info: { name: settings.name, version: settings.version, title: settings.title },
    instructions: settings.instructions,
    tools,
    resources,
    prompts,
    completions,
    logger,
    policy,
    openScope: host.openScope,
    middleware,
    hub,
    forms: new ElicitationForms(lenient, types),
    stateSecret: stateSecret(settings.requestStateSecret),
    declare: settings.capabilities,
    maxSubscriptionsPerSession: settings.maxSubscriptionsPerSession ?? 100,
    cacheHints: settings.cacheHints,
    tasks: settings.tasks,
    ...(toolSearch ? { toolSearch } : {}),
    state: settings.state,
    skills,
  };
  // Checked at bootstrap in this order; a durable queue's task worker starts once all of them passed.
  const cacheHints = checkedCacheHints(settings.cacheHints);
  const taskOptions = settings.tasks ? resolveTasksOptions(settings.tasks) : undefined;
  const state = resolveStateOptions(settings.state);
  const tasks = new TaskRuntime(protocol, taskOptions, state);
  const factory = new ServerFactory(protocol, { tasks, state, ...(cacheHints ? { cacheHints } : {}) });
  if (!host.startsWorkLater) tasks.start();
  const parts = { factory, http: new HttpServing(protocol, factory, tasks), tasks, stops: [() => skills.close()] };
  const registries: ApplicationRegistries = {
    server: { name: settings.name, version: settings.version, ...(settings.title !== undefined ? { title: settings.title } : {}) },
    types,
    tools,
    resources,
    prompts,
    completions,
    hub,
    register: (instances, options = {}) => {
      const { namespace, transforms } = options;
      if (namespace !== undefined || transforms !== undefined) checkFeatureOptions({ namespace, transforms }, 'app.tools.add');
      return register(instances.map((instance) => host.adopt(instance, types, namespace)), { ...(transforms ? { transforms } : {}) });
    },
    provide: (provider, components, options = {}) => {
      const { namespace, transforms } = options;
      if (namespace !== undefined || transforms !== undefined) checkFeatureOptions({ namespace, transforms }, 'app.providers.add');
      const named = providerName(provider, namespace);
      const provided = providedMethods(components, named, provider.runtimeSchemas ? `the ${provider.source}` : undefined);
      return register([host.adopt(provider, types, namespace, provided)], { ...(transforms ? { transforms } : {}) });
    },
    warnUnprovidedComponents: () => warnUnprovidedComponents(served, host.name, logger, settings.warnings),
    skills: (provider, provided, options) => skills.provide(provider, provided, options.namespace),
  };
  const app = new McpApplication(host, parts, registries, logger);
  app.providers.add(skills.provider());
  try {
    await host.ready();
    // Skills of providers added while the application was built are served before it is.
    await skills.settled();
  } catch (error) {
    // What the task runtime runs (the task service's watch of its store) stops with the bootstrap.
    await tasks.close().catch(() => undefined);
    throw error;
  }
  return { app, registries };
}

/** What messages and `ExecutionContext.getClass()` call a provider: its class, and its namespace (`McpProxy(docs)`). */
function providerName(provider: object, namespace: string | undefined): string {
  const own = provider.constructor !== Object && provider.constructor?.name ? provider.constructor.name : 'McpProvider';
  return namespace !== undefined ? `${own}(${namespace})` : own;
}

/** The HMAC key of multi-round-trip state: the configured one (≥ 32 bytes), or a random one per process. */
function stateSecret(configured: string | undefined): string | Uint8Array {
  if (configured === undefined) return randomBytes(32);
  if (Buffer.byteLength(configured) >= 32) return configured;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot use requestStateSecret: it is ${Buffer.byteLength(configured)} bytes long, and an HMAC-SHA256 key must be at least 32 bytes.\n` +
      `Fix: use a random secret of 32 bytes or more, e.g. the output of \`openssl rand -base64 48\`, shared by every instance.`,
  );
}

/** Numeric options are whole numbers in range: a bad one would fail every list or call, not the bootstrap. */
function checkNumericOptions(settings: McpModuleOptions): void {
  const rules: [keyof McpModuleOptions, number, string][] = [
    ['pageSize', 1, 'the number of items per list page, e.g. pageSize: 50 (leave it out for one page)'],
    ['callTimeout', 0, 'milliseconds, e.g. callTimeout: 60_000 (0: no deadline)'],
    ['maxSubscriptionsPerSession', 0, 'a count, e.g. maxSubscriptionsPerSession: 100'],
  ];
  for (const [option, min, example] of rules) {
    const value = settings[option];
    if (value === undefined || (typeof value === 'number' && Number.isSafeInteger(value) && value >= min)) continue;
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot use McpModule.forRoot({ ${option}: ${JSON.stringify(value) ?? String(value)} }): it must be a whole number of at least ${min}.\n` +
        `Fix: give ${example}.`,
    );
  }
}

/** Options of `McpFactory.create()`. */
export interface McpFactoryOptions {
  /** Providers that replace those with the same token anywhere in the graph (what `Test` overrides use). */
  overrides?: ReadonlyMap<InjectionToken, Provider>;
  /**
   * The types `mcp-reflect generate` wrote (its module's `metadata` export): parameter and DTO schemas from
   * the full TypeScript types and JSDoc. Same as `McpModule.forRoot({ metadata })`. See docs/types.md.
   */
  metadata?: GeneratedMetadata;
  /**
   * The validators `mcp-reflect validators` compiled ahead of time (its module's `validators` export): no
   * validator is compiled at start, and the application runs where code generation is not allowed (Cloudflare
   * Workers). Same as `McpModule.forRoot({ validators })`. See docs/runtimes.md.
   */
  validators?: PrecompiledValidators;
  /** When argument and output validators are compiled. Same as `McpModule.forRoot({ compileValidators })`. See docs/validation.md. */
  compileValidators?: 'atStart' | 'onFirstUse';
}
