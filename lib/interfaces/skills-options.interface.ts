import type { CacheHint } from './component-options.interface';

/** The files of one skill built in code: paths under its folder (`SKILL.md`, `references/GUIDE.md`) → content. */
export type SkillFileContents = Readonly<Record<string, string | Uint8Array>>;

/**
 * One source of skills (the `io.modelcontextprotocol/skills` extension, SEP-2640), served by
 * `McpModule.forRoot({ skills })` (docs/skills.md): a folder of skill folders, or skills built in code.
 *
 * @example
 * McpModule.forRoot({ name: 'docs', version: '1.0.0', skills: { directory: './skills' } })
 */
export interface McpSkillsOptions {
  /** A folder of skill folders, each with a `SKILL.md` (its frontmatter `name` is the folder's name). */
  readonly directory?: string;
  /** Skills built in code, by skill path (`pdf-processing`, `acme/billing`): each its files, `SKILL.md` among them. */
  readonly skills?: Readonly<Record<string, SkillFileContents>>;
  /** Organisational prefix: `'acme'` serves `skill://acme/<skill>/…`. */
  readonly prefix?: string;
  /** The scopes a caller's token must grant to see and read these skills (as `@Scopes()`). */
  readonly scopes?: readonly string[];
  /** Tags of their resources, for `forRoot({ includeTags, excludeTags })`. */
  readonly tags?: readonly string[];
  /** Serve `resources/directory/read` on the skills' folders (default true). */
  readonly directoryRead?: boolean;
  /** Entries per `skills/list` and `resources/directory/read` page (default 100). */
  readonly pageSize?: number;
  /** `ttlMs` / `cacheScope` of `skills/list`, `skills/get`, directory reads and file reads on 2026-07-28 (default 0 / 'private'). */
  readonly cacheHint?: CacheHint;
  /**
   * Bounds of one skill (default: the SDK's `SKILL_LIMITS`, 512 files and 16 MiB, and folders 8 deep under the
   * skills folder). A skill beyond them fails the bootstrap (a reload: keeps the old catalogue), naming it.
   */
  readonly limits?: { readonly files?: number; readonly bytes?: number; readonly depth?: number };
  /** Reload a directory when it changes (default true: clients hear `resources/list_changed`). */
  readonly watch?: boolean;
}
