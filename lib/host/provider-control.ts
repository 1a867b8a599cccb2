import type { AddedComponents, AddOptions, ComponentTransforms, McpProvider, ProvidedComponents, ProvidedSkill } from '../interfaces';
import { namesOf, printable } from '../catalogue';
import type { ServerLogger } from '../interfaces';

/** What serving providers needs of the application it serves them in. */
export interface ProviderSite {
  /** Adds the components of `provider` all at once, or none (the error says why). */
  register(provider: McpProvider, components: ProvidedComponents, options: AddOptions): AddedComponents;
  /** Removes what was added (a name the application removed since is skipped). */
  remove(added: AddedComponents): void;
  /** Runs `work`; the list changes it makes reach clients as one `list_changed` per kind. */
  batch<T>(work: () => T): T;
  readonly logger: Pick<ServerLogger, 'error'>;
  /** Serves the skills `provider` lists now in place of those it served (none: stops serving them); they are hashed asynchronously. */
  skills?(provider: McpProvider, skills: readonly ProvidedSkill[] | undefined, options: AddOptions): void;
}

/** A provider being served: what it serves now. */
export interface ServedProvider {
  /** The served names of what it serves now. */
  readonly names: AddedComponents;
  /** Stops serving it: its components are removed (one `list_changed` per kind), its watch ended. */
  remove(): void;
}

/** Internal options of {@link ProvidedSet.replace}: how messages name where the transforms were given. */
export interface ReplaceOptions extends AddOptions {
  /** Where `transforms` was given, for the message about names the provider no longer lists (`McpModule.proxy({ … })`). */
  readonly where?: string;
}

const NONE: AddedComponents = { tools: [], resources: [], templates: [], prompts: [] };

/**
 * What one provider serves, replaced as a whole when it changes: the old components go and the new come in one
 * change for clients; a component the application refuses (a name it already serves, a schema it cannot compile)
 * is left out and logged, the rest served. Transforms that name what the provider no longer lists are logged and
 * skipped (a provider's list changes; a decorated class's does not).
 */
export class ProvidedSet {
  private served: AddedComponents = NONE;

  constructor(
    private readonly site: ProviderSite,
    private readonly provider: McpProvider,
  ) {}

  get names(): AddedComponents {
    return this.served;
  }

  /** Serves `components` in place of what it served; `strict`: a refusal throws (nothing changes) instead of being logged. */
  replace(components: ProvidedComponents, options: ReplaceOptions, strict = false): AddedComponents {
    // Strict (a provider added by the application): a transform naming nothing fails, as for a class; else it is logged and skipped.
    const transforms = options.transforms && (strict ? options.transforms : this.known(options.transforms, components, options.where));
    const add = (part: ProvidedComponents) => this.site.register(this.provider, part, { ...options, ...(transforms ? { transforms: part === components ? transforms : only(transforms, part) } : {}) });
    if (strict) {
      const added = this.site.batch(() => {
        const next = add(components);
        this.site.remove(this.served);
        return next;
      });
      return (this.served = added);
    }
    return this.site.batch(() => {
      this.site.remove(this.served);
      this.served = NONE;
      try {
        this.served = add(components);
      } catch {
        this.served = this.oneByOne(components, add);
      }
      return this.served;
    });
  }

  /** Removes everything it serves. */
  clear(): void {
    this.site.batch(() => this.site.remove(this.served));
    this.served = NONE;
  }

  /** Adds each component on its own (a completer with the rest); logs the ones refused. */
  private oneByOne(components: ProvidedComponents, add: (part: ProvidedComponents) => AddedComponents): AddedComponents {
    const completers = components.completers ?? [];
    const parts: [string, string, ProvidedComponents][] = [
      ...(components.tools ?? []).map((t): [string, string, ProvidedComponents] => ['tool', t.name, { tools: [t], completers: [] }]),
      ...(components.resources ?? []).map((r): [string, string, ProvidedComponents] => ['resource', r.uri, { resources: [r] }]),
      ...(components.templates ?? []).map((t): [string, string, ProvidedComponents] => [
        'resource template',
        t.uriTemplate,
        { templates: [t], completers: completers.filter((c) => 'resourceTemplate' in c && c.resourceTemplate === t.uriTemplate) },
      ]),
      ...(components.prompts ?? []).map((p): [string, string, ProvidedComponents] => ['prompt', p.name, { prompts: [p], completers: completers.filter((c) => 'prompt' in c && c.prompt === p.name) }]),
    ];
    const served = { tools: [] as string[], resources: [] as string[], templates: [] as string[], prompts: [] as string[] };
    for (const [what, name, part] of parts) {
      try {
        const added = add(part);
        for (const kind of ['tools', 'resources', 'templates', 'prompts'] as const) served[kind].push(...added[kind]);
      } catch (error) {
        const reason = (error instanceof Error ? error.message : String(error)).split('\n')[0];
        this.site.logger.error(`The ${this.provider.source} lists the ${what} '${printable(name, 100)}', which cannot be served: ${printable(reason, 500)} It is left out; the rest is served.`);
      }
    }
    return served;
  }

  /** The transforms of the names the provider lists now; the others are logged and skipped. */
  private known(transforms: ComponentTransforms, components: ProvidedComponents, where = 'transforms'): ComponentTransforms {
    const listed = listedNames(components);
    const known: Record<string, Record<string, unknown>> = {};
    for (const kind of ['tools', 'prompts', 'resources'] as const) {
      const given = transforms[kind] as Record<string, unknown> | undefined;
      if (!given) continue;
      const names = Object.keys(given);
      const missing = names.filter((name) => !listed[kind].includes(name));
      if (missing.length > 0) {
        this.site.logger.error(
          `${where} names ${namesOf(missing)} in transforms.${kind}, which the ${this.provider.source} does not list: not applied. ` +
            `It lists: ${listed[kind].length > 0 ? namesOf(listed[kind]) : 'none'}.`,
        );
      }
      known[kind] = Object.fromEntries(names.filter((name) => listed[kind].includes(name)).map((name) => [name, given[name]]));
    }
    return known as ComponentTransforms;
  }
}

/**
 * Serves `provider` through `site`: what it lists now, all of it or nothing (the error says why), then, on each
 * change it reports, what it lists then (left-out components logged).
 */
export function serveProvider(site: ProviderSite, provider: McpProvider, options: AddOptions = {}): ServedProvider {
  const set = new ProvidedSet(site, provider);
  const serve = (strict: boolean) => {
    const components = provider.components();
    set.replace(components, options, strict);
    if (components.skills !== undefined || strict === false) site.skills?.(provider, components.skills, options);
  };
  serve(true);
  const unwatch = provider.watch?.(() => serve(false));
  return {
    get names() {
      return set.names;
    },
    remove() {
      unwatch?.();
      set.clear();
      site.skills?.(provider, undefined, options);
    },
  };
}

/** The declared names of what `components` lists, by the kinds transforms name. */
function listedNames(components: ProvidedComponents): { tools: string[]; prompts: string[]; resources: string[] } {
  return {
    tools: (components.tools ?? []).map((t) => t.name),
    prompts: (components.prompts ?? []).map((p) => p.name),
    resources: [...(components.resources ?? []).map((r) => r.name), ...(components.templates ?? []).map((t) => t.name)],
  };
}

/** The transforms of the components of `part` only (a component added on its own names no other). */
function only(transforms: ComponentTransforms, part: ProvidedComponents): ComponentTransforms {
  const names = listedNames(part);
  const picked: Record<string, Record<string, unknown>> = {};
  for (const kind of ['tools', 'prompts', 'resources'] as const) {
    const given = transforms[kind] as Record<string, unknown> | undefined;
    if (given) picked[kind] = Object.fromEntries(Object.entries(given).filter(([name]) => names[kind].includes(name)));
  }
  return picked as ComponentTransforms;
}
