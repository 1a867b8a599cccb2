import type { Skill } from '@modelcontextprotocol/server/ext/skills';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { CacheHint, McpProvider, McpSkillsOptions, ProvidedResource, ProvidedSkill, ProvidedTemplate, ServerLogger } from '../../interfaces';
import { resourceNotFound, ResourceResult } from '../../resources';
import type { SkillCatalogue, SkillFile } from './skill-catalogue';

/** The catalogue and the SDK's skills extension load with the first skill served: an application without skills never loads them. */
const catalogueClass = (): typeof import('./skill-catalogue').SkillCatalogue => (require('./skill-catalogue') as typeof import('./skill-catalogue')).SkillCatalogue;

/** How long a folder must be quiet after a change before it is scanned again (an editor writes a file in steps). */
const SETTLE_MS = 150;

/**
 * Every skill an application serves (`forRoot({ skills })`), from one or more sources: what `skills/list`,
 * `skills/get` and `resources/directory/read` answer from, and the provider whose resources (each skill's
 * `SKILL.md`, and a template for its other files) go through the application's one pipeline — visibility,
 * scopes, guards, middleware, interceptors and filters apply to a skill's files as to any resource.
 */
export class SkillShelf {
  private readonly stops: (() => void)[] = [];
  /** The skills of each provider (`ProvidedComponents.skills`), once hashed. */
  private readonly provided = new Map<McpProvider, readonly SkillCatalogue[]>();
  /** The last load of each provider's skills (a newer one wins). */
  private readonly loading = new Map<McpProvider, Promise<void>>();
  /** Whom to tell that the catalogues changed (the provider's watchers). */
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly own: readonly SkillCatalogue[],
    private readonly logger: Pick<ServerLogger, 'error' | 'warn'>,
  ) {}

  /** Every source: `forRoot({ skills })`'s, then the providers'. */
  get catalogues(): readonly SkillCatalogue[] {
    return [...this.own, ...[...this.provided.values()].flat()];
  }

  /** Whether some skill source is served (the extension is declared then). */
  get serving(): boolean {
    return this.own.length > 0 || this.provided.size > 0;
  }

  /**
   * Serves the skills `provider` lists in place of those it served (`undefined`: none). They are hashed first; one
   * that cannot be served (the same checks as a folder's) is logged and left out with the rest of its provider's.
   */
  provide(provider: McpProvider, skills: readonly ProvidedSkill[] | undefined, namespace: string | undefined): void {
    if (skills === undefined || skills.length === 0) {
      this.loading.delete(provider);
      if (this.provided.delete(provider)) this.changed();
      return;
    }
    const load = Promise.all(
      skills.map((skill) =>
        catalogueClass().load(
          { skills: { [skill.path]: skill.files }, ...(namespace !== undefined ? { prefix: namespace } : {}), ...(skill.scopes ? { scopes: skill.scopes } : {}), watch: false },
          `the skill '${skill.path}' from ${provider.source}`,
          this.logger,
        ),
      ),
    ).then(
      (catalogues) => {
        if (this.loading.get(provider) !== load) return; // a newer list of this provider's skills won
        const others = new Set(this.catalogues.filter((c) => !(this.provided.get(provider) ?? []).includes(c)).flatMap((c) => c.entries.map((e) => e.uri)));
        const taken = catalogues.flatMap((c) => c.entries.map((e) => e.uri)).filter((uri) => others.has(uri));
        if (taken.length > 0) throw new Error(`Cannot serve the skills from ${provider.source}: ${taken.join(', ')} ${taken.length === 1 ? 'is' : 'are'} served by another source already.\nFix: rename the skill, or add the provider under a namespace (its skills' prefix).`);
        this.provided.set(provider, catalogues);
        this.changed();
      },
    ).catch((error: unknown) => {
      this.logger.error(`${error instanceof Error ? error.message : String(error)}\nThe skills from ${provider.source} are not served.`);
    });
    this.loading.set(provider, load);
  }

  /** Resolves once every provider's skills listed so far are served (or refused, and logged). */
  async settled(): Promise<void> {
    await Promise.all(this.loading.values());
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Loads every source of `forRoot({ skills })`; one that cannot be served fails the bootstrap (INVALID_SKILLS). */
  static async load(given: McpSkillsOptions | readonly McpSkillsOptions[], logger: Pick<ServerLogger, 'error' | 'warn'>): Promise<SkillShelf> {
    const sources = Array.isArray(given) ? (given as readonly McpSkillsOptions[]) : [given as McpSkillsOptions];
    const catalogues: SkillCatalogue[] = [];
    for (const [i, options] of sources.entries()) {
      const where = sources.length > 1 ? `McpModule.forRoot({ skills[${i}] })` : 'McpModule.forRoot({ skills })';
      checkSource(options, where);
      catalogues.push(await catalogueClass().load(options, where, logger));
    }
    const shelf = new SkillShelf(catalogues, logger);
    shelf.checkUnique();
    return shelf;
  }

  /** Every skill, by URI. */
  entries(): readonly Skill[] {
    return this.catalogues.flatMap((c) => c.entries).sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  }

  /** Whether `resources/directory/read` is served (some source allows it). */
  get directoryRead(): boolean {
    return this.catalogues.some((c) => c.options.directoryRead !== false);
  }

  get pageSize(): number {
    return Math.min(...this.catalogues.map((c) => c.options.pageSize ?? 100));
  }

  /** The cache hint of the skills methods (the first source's that sets one). */
  get cacheHint(): CacheHint | undefined {
    return this.catalogues.find((c) => c.options.cacheHint)?.options.cacheHint;
  }

  /** The catalogue serving the file, folder or skill at `uri`. */
  catalogueOf(uri: string): SkillCatalogue | undefined {
    return this.catalogues.find((c) => c.skillOf(uri) !== undefined);
  }

  /** The provider of the skills' resources; it reports a change of a watched folder. */
  provider(): McpProvider {
    const shelf = this;
    return {
      source: 'skills',
      components: () => ({ resources: this.catalogues.flatMap((c) => c.entries.map((s) => manifestResource(c, s))), templates: this.catalogues.flatMap((c) => c.entries.map((s) => filesTemplate(c, s))) }),
      watch: (changed) => {
        shelf.listeners.add(changed);
        for (const catalogue of shelf.own) {
          const { directory, watch } = catalogue.options;
          if (directory !== undefined && watch !== false) shelf.stops.push(shelf.watchFolder(catalogue, directory, changed));
        }
        return () => {
          shelf.listeners.delete(changed);
          shelf.close();
        };
      },
    };
  }

  /** Stops watching the folders. */
  close(): void {
    for (const stop of this.stops.splice(0)) stop();
  }

  /** Watches `directory`: once it settles after a change, the catalogue is scanned again; a failed scan keeps the old one. */
  private watchFolder(catalogue: SkillCatalogue, directory: string, changed: () => void): () => void {
    const { watch } = require('node:fs') as typeof import('node:fs');
    let timer: ReturnType<typeof setTimeout> | undefined;
    let scanning = Promise.resolve();
    const rescan = () => {
      scanning = scanning
        .then(() => catalogue.reload())
        .then((differs) => {
          if (differs) changed();
        })
        .catch((error: unknown) => this.logger.error(`${error instanceof Error ? error.message : String(error)}\nThe skills served before the change are served still.`));
    };
    const watcher = watch(directory, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(rescan, SETTLE_MS);
      timer.unref?.();
    });
    watcher.on('error', (error) => this.logger.error(`Cannot watch ${catalogue.label} any longer (${error.message}); its skills are served as they were.`));
    watcher.unref();
    return () => {
      clearTimeout(timer);
      watcher.close();
    };
  }

  /** Two sources serving the same skill URI: which one a read would reach is undefined, so it fails the bootstrap. */
  private checkUnique(): void {
    const seen = new Map<string, string>();
    for (const catalogue of this.catalogues) {
      for (const skill of catalogue.entries) {
        const other = seen.get(skill.uri);
        if (other !== undefined) {
          throw new BootstrapError(
            BootstrapErrorCode.InvalidSkills,
            `Cannot serve ${catalogue.label}: it serves ${skill.uri}, which ${other} serves too.\nFix: rename one of the skills, or give one source a prefix (skills: { prefix: 'acme' }).`,
          );
        }
        seen.set(skill.uri, catalogue.label);
      }
    }
  }
}

function checkSource(options: McpSkillsOptions, where: string): void {
  const given = (options.directory !== undefined ? 1 : 0) + (options.skills !== undefined ? 1 : 0);
  if (given !== 1) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot use ${where}: give either a directory (a folder of skill folders) or skills (built in code), ${given === 0 ? 'not neither' : 'not both'}.\n` +
        `Fix: skills: { directory: './skills' }, or skills: [{ directory: './skills' }, { skills: { 'my-skill': { 'SKILL.md': '---\\nname: my-skill\\n…' } } }].`,
    );
  }
  for (const bound of ['pageSize', 'files', 'bytes', 'depth'] as const) {
    const value = bound === 'pageSize' ? options.pageSize : options.limits?.[bound];
    if (value !== undefined && !(Number.isSafeInteger(value) && value > 0)) {
      throw new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot use ${where}: ${bound === 'pageSize' ? 'pageSize' : `limits.${bound}`} is ${String(value)}, not a whole number above 0.\nFix: give a positive whole number, or leave it out for the default.`);
    }
  }
}

/** A skill's `SKILL.md` as a resource: listed, named and described by its frontmatter. */
function manifestResource(catalogue: SkillCatalogue, skill: Skill): ProvidedResource {
  const file = catalogue.file(skill.uri)!;
  const { options } = catalogue;
  return {
    uri: skill.uri,
    name: skill.frontmatter.name,
    description: skill.frontmatter.description,
    mimeType: 'text/markdown',
    size: file.size,
    ...(options.scopes ? { scopes: options.scopes } : {}),
    ...(options.tags ? { tags: [...options.tags] } : {}),
    ...(options.cacheHint ? { cacheHint: options.cacheHint } : {}),
    read: () => readFile(catalogue, file),
  };
}

/** The other files of a skill, behind one template under its folder (read only when a client needs them). */
function filesTemplate(catalogue: SkillCatalogue, skill: Skill): ProvidedTemplate {
  const root = skill.uri.slice(0, -'/SKILL.md'.length);
  const { options } = catalogue;
  return {
    uriTemplate: `${root}/{+path}`,
    name: `${skill.frontmatter.name}/files`,
    description: `The files of the skill ${skill.frontmatter.name} (its SKILL.md lists them, with their digests).`,
    ...(options.scopes ? { scopes: options.scopes } : {}),
    ...(options.tags ? { tags: [...options.tags] } : {}),
    ...(options.cacheHint ? { cacheHint: options.cacheHint } : {}),
    read: ({ path }) => {
      const uri = `${root}/${path}`;
      const file = catalogue.file(uri);
      if (file === undefined) throw resourceNotFound(uri);
      return readFile(catalogue, file);
    },
  };
}

/** A file's content: text when its bytes are UTF-8 (nothing lost), else a base64 blob. */
async function readFile(catalogue: SkillCatalogue, file: SkillFile): Promise<ResourceResult> {
  const bytes = await catalogue.read(file);
  let text: string | undefined;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    text = undefined;
  }
  return new ResourceResult([text !== undefined ? { uri: file.uri, mimeType: file.mimeType, text } : { uri: file.uri, mimeType: file.mimeType, blob: Buffer.from(bytes).toString('base64') }]);
}
