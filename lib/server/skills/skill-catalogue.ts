import { DIRECTORY_MIME_TYPE, SKILL_LIMITS, SkillCatalog, SkillCatalogError, memorySkillFiles, type Skill, type SkillFiles, type SkillWarning } from '@modelcontextprotocol/server/ext/skills';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { McpSkillsOptions, ServerLogger } from '../../interfaces';

/** One file of a skill as the catalogue published it: where it is read from, and what its reader must get. */
export interface SkillFile {
  readonly uri: string;
  /** Relative to the source's root (`pdf-processing/references/FORMS.md`). */
  readonly path: string;
  readonly digest: string;
  readonly size: number;
  readonly mimeType: string;
}

/** One child of a skill folder in `resources/directory/read`. */
export interface DirectoryChild {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: string;
  readonly size?: number;
}

/** The default depth bound: folders under the skills folder (a skill's own folder is 1). */
export const SKILL_DEPTH = 8;

/** What a catalogue serves now, indexed once per (re)load. */
interface Snapshot {
  readonly entries: readonly Skill[];
  readonly files: ReadonlyMap<string, SkillFile>;
  readonly dirs: ReadonlyMap<string, readonly DirectoryChild[]>;
  /** The skill folder URI (`skill://pdf-processing`) of each file and folder URI. */
  readonly skillOf: ReadonlyMap<string, string>;
}

/**
 * One source of skills (`forRoot({ skills })`): the SDK's `SkillCatalog` builds it (walk, SHA-256 digests, sizes,
 * frontmatter rules, limits, symlinks refused) through its storage adapter (`nodeSkillFiles` for a folder,
 * `memorySkillFiles` for skills built in code); this keeps the index our pipeline serves from and reads files
 * back through the same adapter, checked against the published digest and size.
 */
export class SkillCatalogue {
  private snapshot: Snapshot;

  private constructor(
    readonly label: string,
    readonly options: McpSkillsOptions,
    private readonly files: SkillFiles,
    private readonly catalog: SkillCatalog,
    private readonly prefix: readonly string[],
  ) {
    this.snapshot = index(catalog.entries, prefix);
  }

  /** Loads one source; a skill it cannot serve (beyond the limits, a symlink, bad frontmatter) fails with INVALID_SKILLS. */
  static async load(options: McpSkillsOptions, where: string, logger: Pick<ServerLogger, 'error' | 'warn'>): Promise<SkillCatalogue> {
    const label = options.directory !== undefined ? `the skills folder '${options.directory}'` : 'the skills built in code';
    const depth = options.limits?.depth ?? SKILL_DEPTH;
    const storage = options.directory !== undefined ? nodeFiles(options.directory) : memorySkillFiles(toRecord(options.skills ?? {}));
    const files = bounded(storage, depth);
    const warn = (warning: SkillWarning) => (logger.warn ?? logger.error).call(logger, `Skills of ${label}: ${warning.path}: ${warning.message}`);
    const limits = { files: options.limits?.files ?? SKILL_LIMITS.files, bytes: options.limits?.bytes ?? SKILL_LIMITS.bytes };
    let catalog: SkillCatalog;
    try {
      catalog = await SkillCatalog.load(files, { strict: true, limits, pageSize: Number.POSITIVE_INFINITY, onWarning: warn, ...(options.prefix ? { prefix: options.prefix } : {}) });
    } catch (error) {
      throw invalidSkills(label, where, error);
    }
    const prefix = options.prefix ? options.prefix.split('/').filter((s) => s !== '') : [];
    return new SkillCatalogue(label, options, files, catalog, prefix);
  }

  get entries(): readonly Skill[] {
    return this.snapshot.entries;
  }

  /** The published file at `uri`, if this catalogue serves one. */
  file(uri: string): SkillFile | undefined {
    return this.snapshot.files.get(uri);
  }

  /** The children of the folder at `uri` (a skill's folder or one inside it), if this catalogue serves one. */
  directory(uri: string): readonly DirectoryChild[] | undefined {
    return this.snapshot.dirs.get(stripSlash(uri));
  }

  /** The SKILL.md URI of the skill that holds `uri` (a file or folder of it). */
  skillOf(uri: string): string | undefined {
    const folder = this.snapshot.skillOf.get(stripSlash(uri));
    return folder === undefined ? undefined : `${folder}/SKILL.md`;
  }

  /** The bytes of a published file, checked against its digest and size: a file changed since the load is refused. */
  async read(file: SkillFile): Promise<Uint8Array> {
    const bytes = await this.files.read(file.path);
    if (bytes.byteLength !== file.size || (await sha256(bytes)) !== file.digest) {
      throw new Error(`${file.uri} changed since the skills were loaded (its digest no longer matches); they are reloaded when the folder changes`);
    }
    return bytes;
  }

  /** Scans the source again (all or nothing: on failure the old catalogue keeps serving); whether anything changed. */
  async reload(): Promise<boolean> {
    let changes;
    try {
      changes = await this.catalog.reload();
    } catch (error) {
      throw invalidSkills(this.label, 'a reload', error);
    }
    this.snapshot = index(this.catalog.entries, this.prefix);
    return changes.added.length + changes.removed.length + changes.changed.length > 0;
  }
}

/** INVALID_SKILLS: the SDK's list of problems, each with its path, and how to fix them. */
function invalidSkills(label: string, where: string, error: unknown): BootstrapError {
  const problems = error instanceof SkillCatalogError ? error.problems.map((p) => `  ${p.path}: ${p.message}`).join('\n') : `  ${error instanceof Error ? error.message : String(error)}`;
  return new BootstrapError(
    BootstrapErrorCode.InvalidSkills,
    `Cannot serve ${label} (${where}):\n${problems}\n` +
      `Fix: each skill is a folder named as its SKILL.md frontmatter 'name', with regular files only (copy a symlinked file in), within the limits ` +
      `(skills: { limits: { files, bytes, depth } }); a path never leaves the skills folder.`,
    { cause: error },
  );
}

/** A storage adapter that refuses folders deeper than `depth` (the SDK bounds files and bytes, not depth). */
function bounded(files: SkillFiles, depth: number): SkillFiles {
  return {
    list: (dir) => {
      if (dir !== '' && dir.split('/').length > depth) return Promise.reject(new Error(`it is more than ${depth} folders deep (limits.depth)`));
      return files.list(dir);
    },
    read: (path) => files.read(path),
  };
}

/** The folder adapter, loaded only for a folder (it needs node:fs, which not every runtime has). */
function nodeFiles(directory: string): SkillFiles {
  const { nodeSkillFiles } = require('@modelcontextprotocol/server/ext/skills/node') as typeof import('@modelcontextprotocol/server/ext/skills/node');
  return nodeSkillFiles(directory);
}

/** Skills built in code as the flat record `memorySkillFiles` reads (`<skill path>/<file path>`). */
function toRecord(skills: Readonly<Record<string, Readonly<Record<string, string | Uint8Array>>>>): Record<string, string | Uint8Array> {
  const record: Record<string, string | Uint8Array> = {};
  for (const [skill, files] of Object.entries(skills)) for (const [path, content] of Object.entries(files)) record[`${skill}/${path}`] = content;
  return record;
}

/** `sha256:` and the lowercase hex SHA-256 of `bytes` (WebCrypto: every runtime). */
async function sha256(bytes: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return `sha256:${Array.from(hash, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

const stripSlash = (uri: string) => uri.replace(/\/+$/, '');

/** The relative path of a `skill://` URI under the source's root (its prefix taken off). */
function pathOf(uri: string, prefix: readonly string[]): string {
  const segments = uri.slice('skill://'.length).split('/').map((s) => decodeURIComponent(s));
  return segments.slice(prefix.length).join('/');
}

/** The files, folders and skills of a catalogue's entries, indexed once. */
function index(entries: readonly Skill[], prefix: readonly string[]): Snapshot {
  const files = new Map<string, SkillFile>();
  const dirs = new Map<string, Map<string, DirectoryChild>>();
  const skillOf = new Map<string, string>();
  const child = (dir: string, item: DirectoryChild) => {
    let children = dirs.get(dir);
    if (!children) dirs.set(dir, (children = new Map()));
    children.set(item.uri, item);
  };
  for (const skill of entries) {
    const root = skill.uri.slice(0, -'/SKILL.md'.length);
    skillOf.set(root, root);
    dirs.set(root, dirs.get(root) ?? new Map());
    for (const resource of skill.resources === 'dynamic' ? [] : skill.resources) {
      const name = resource.uri.slice(resource.uri.lastIndexOf('/') + 1);
      const file: SkillFile = { uri: resource.uri, path: pathOf(resource.uri, prefix), digest: resource.digest, size: resource.size, mimeType: mimeTypeOf(name) };
      files.set(resource.uri, file);
      skillOf.set(resource.uri, root);
      let dir = resource.uri.slice(0, resource.uri.lastIndexOf('/'));
      child(dir, { uri: file.uri, name: decodeURIComponent(name), mimeType: file.mimeType, size: file.size });
      // Each folder between the file and the skill's root is a child of its parent.
      while (dir !== root && dir.length > root.length) {
        const parent = dir.slice(0, dir.lastIndexOf('/'));
        skillOf.set(dir, root);
        child(parent, { uri: dir, name: decodeURIComponent(dir.slice(parent.length + 1)), mimeType: DIRECTORY_MIME_TYPE });
        dir = parent;
      }
    }
  }
  const sorted = new Map([...dirs].map(([uri, children]) => [uri, [...children.values()].sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0))] as const));
  return { entries, files, dirs: sorted, skillOf };
}

const MIME_TYPES: Readonly<Record<string, string>> = {
  md: 'text/markdown',
  markdown: 'text/markdown',
  txt: 'text/plain',
  json: 'application/json',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  py: 'text/x-python',
  sh: 'application/x-sh',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/typescript',
  html: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  xml: 'application/xml',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
};

/** A skill file's MIME type by its extension (`application/octet-stream` when unknown). */
function mimeTypeOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return (dot > 0 && MIME_TYPES[name.slice(dot + 1).toLowerCase()]) || 'application/octet-stream';
}
