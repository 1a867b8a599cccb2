import { unknownComponentMessage, type Catalogue } from '../catalogue';
import { Injectable } from '../decorators';
import type { AddedComponents, AddOptions, McpProvider } from '../interfaces';
import { ProvidedSet, serveProvider, type ProviderSite, type ServedProvider } from './provider-control';

/** What the control needs of a catalogue: names and switches, whatever its items. */
type Controlled = Pick<Catalogue<never, unknown>, 'names' | 'has' | 'isEnabled' | 'enable' | 'disable' | 'remove' | 'kind'>;
import { ErrorCode, McpReflectError } from '../errors';

/**
 * Runtime control over one kind of component (`app.tools`, `app.resources`, `app.prompts`). Every change
 * sends the matching `list_changed` notification to connected sessions.
 *
 * @example
 * app.tools.disable('deleteEverything');
 * app.tools.add(new ReportTools(db)); // every @Tool() method of the instance
 */
export class ComponentControl {
  /** @internal Built by the application (`app.tools`, `app.resources`, `app.prompts`). */
  constructor(
    private readonly catalogues: readonly Controlled[],
    private readonly addInstance: (instance: object, options?: AddOptions) => AddedComponents,
  ) {}

  /** Names of every component of this kind, enabled or not. */
  names(): string[] {
    return this.catalogues.flatMap((c) => c.names());
  }

  isEnabled(name: string): boolean {
    return this.owner(name).isEnabled(name);
  }

  enable(name: string): void {
    this.owner(name).enable(name);
  }

  disable(name: string): void {
    this.owner(name).disable(name);
  }

  remove(name: string): void {
    this.owner(name).remove(name);
  }

  /**
   * Registers the decorated methods of an object (its class's `@Tool()`, `@Resource()`, `@Prompt()` …);
   * `namespace` serves them under it and `transforms` (by declared names) reshape them, as
   * `McpModule.forFeature({ namespace, transforms })` does (docs/composition.md). Returns the served names of
   * what it registered, to remove exactly those later.
   *
   * @example
   * const added = app.tools.add(new ReportTools(db), { namespace: 'reports' });
   * for (const name of added.tools) app.tools.remove(name);
   */
  add(instance: object, options?: AddOptions): AddedComponents {
    return this.addInstance(instance, options);
  }

  private owner(name: string): Controlled {
    const owner = this.catalogues.find((c) => c.has(name));
    if (owner) return owner;
    const kind = this.catalogues[0].kind;
    const known = this.names();
    throw new McpReflectError(ErrorCode.UnknownComponent, unknownComponentMessage(kind, name, known));
  }
}

/**
 * Runtime control of providers (`app.providers`): sources of components other than decorated classes — a
 * proxied server, an OpenAPI document, one of yours (docs/composition.md#providers).
 */
export class ProviderControl {
  constructor(private readonly site: ProviderSite) {}

  /**
   * Serves what `provider` lists, under `namespace` and reshaped by `transforms` (by its names), through the
   * application's one pipeline: all of it, or — on any error, which says why — none. When the provider reports
   * a change (`watch`), what it served is replaced by what it lists then, in one `list_changed` per kind (a
   * component the application refuses then is left out and logged). `remove()` stops serving it.
   *
   * @example
   * const served = app.providers.add(weather, { namespace: 'weather' });
   * served.names.tools; // ['weather_forecast']
   * served.remove();
   */
  add(provider: McpProvider, options?: AddOptions): ServedProvider {
    return serveProvider(this.site, provider, options);
  }

  /** @internal What one provider serves, replaced as a whole when the caller says (a proxy's refresh). */
  set(provider: McpProvider): ProvidedSet {
    return new ProvidedSet(this.site, provider);
  }
}

interface Controls {
  readonly tools: ComponentControl;
  readonly resources: ComponentControl;
  readonly prompts: ComponentControl;
  readonly providers: ProviderControl;
  notifyResourceUpdated(uri: string): Promise<void>;
  batch?<T>(work: () => T): T;
}

/**
 * The application's runtime component control, for providers: inject it to enable, disable, remove or add
 * tools, resources and prompts from inside a tool or a service, as `app.tools` / `app.resources` /
 * `app.prompts` do from outside (each change sends the matching `list_changed`). `McpModule` provides it.
 * Usable once the application is built: in calls, and from `onApplicationBootstrap()` on (not in constructors
 * or `onModuleInit()`, where the components do not exist yet).
 *
 * @example
 * @Injectable()
 * class FeatureFlags {
 *   constructor(private readonly components: McpComponents) {}
 *   @Tool() enableBeta(): string {
 *     this.components.tools.enable('beta_search');
 *     return 'beta_search is on';
 *   }
 * }
 */
@Injectable()
export class McpComponents {
  private controls?: Controls;
  private refusal?: string;

  /**
   * The token of one server's McpComponents, in an application with several servers
   * (`McpModule.forRoot({ name, modules })` more than once): `@Inject(McpComponents.of('admin'))`.
   */
  static of(server: string): symbol {
    return Symbol.for(`mcp-reflect:components:${server}`);
  }

  /** Runtime control of the tools (what `app.tools` is). */
  get tools(): ComponentControl {
    return this.bound('tools').tools;
  }

  /** Runtime control of the resources and resource templates (what `app.resources` is). */
  get resources(): ComponentControl {
    return this.bound('resources').resources;
  }

  /** Runtime control of the prompts (what `app.prompts` is). */
  get prompts(): ComponentControl {
    return this.bound('prompts').prompts;
  }

  /** Serving providers (what `app.providers` is). */
  get providers(): ProviderControl {
    return this.bound('providers').providers;
  }

  /**
   * Tells the sessions subscribed to a resource that it changed (`notifications/resources/updated`), as
   * `app.notifyResourceUpdated(uri)` does: from a service watching files or a queue, outside any call.
   */
  notifyResourceUpdated(uri: string): Promise<void> {
    return this.bound('resources').notifyResourceUpdated(uri);
  }

  /** @internal Runs `work`; the list changes it makes reach clients as one `list_changed` per kind. */
  batch<T>(work: () => T): T {
    const controls = this.bound('tools');
    return controls.batch ? controls.batch(work) : work();
  }

  /** @internal Called once by the application it belongs to, as it is built. */
  bind(controls: Controls): void {
    this.controls ??= controls;
  }

  /** @internal The application has several servers: this (unnamed) McpComponents cannot tell which one is meant. */
  refuse(message: string): void {
    this.refusal = message;
  }

  private bound(kind: string) {
    if (this.refusal) throw new McpReflectError(ErrorCode.UnknownComponent, this.refusal);
    if (this.controls) return this.controls;
    throw new McpReflectError(
      ErrorCode.UnknownComponent,
      `Cannot reach the ${kind} through McpComponents yet: the application's components are built after the providers are constructed and initialised.\n` +
        `Fix: use McpComponents in a tool, resource or prompt call, or from onApplicationBootstrap() on, not in a constructor or onModuleInit().`,
    );
  }
}
