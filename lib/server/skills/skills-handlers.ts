import { ProtocolError, ProtocolErrorCode, type ServerContext } from '@modelcontextprotocol/server';
import { RESOURCES_DIRECTORY_READ_METHOD, SKILLS_EXTENSION_ID, SKILLS_GET_METHOD, SKILLS_LIST_METHOD } from '@modelcontextprotocol/server/ext/skills';
import { SdkRequestChannel } from '../request-channel';
import { through, wire } from '../request-handlers';
import { isModern } from '../server-hub';
import type { SessionRuntime } from '../session-runtime';
import { resourceVisible } from '../visibility';
import type { SkillShelf } from './skill-shelf';

/** The capability a server with skills declares under `extensions` (SEP-2640: settings inline, `directoryRead` when served). */
export function skillsCapability(shelf: SkillShelf): Record<string, object> {
  return { [SKILLS_EXTENSION_ID]: shelf.directoryRead ? { directoryRead: true } : {} };
}

type Params = { cursor?: string; uri?: string };

/** A Standard Schema of the params of the skills methods: an object whose `cursor` and `uri` are strings. */
function paramsSchema(method: string, uriRequired: boolean) {
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'mcp-reflect',
      validate(value: unknown) {
        const params = (value ?? {}) as Record<string, unknown>;
        const issues: { message: string; path: string[] }[] = [];
        if (typeof params !== 'object' || Array.isArray(params)) issues.push({ message: `${method}: params must be an object`, path: [] });
        else {
          if (params.cursor !== undefined && typeof params.cursor !== 'string') issues.push({ message: 'cursor must be a string', path: ['cursor'] });
          if (uriRequired && typeof params.uri !== 'string') issues.push({ message: 'uri must be a string', path: ['uri'] });
        }
        return issues.length > 0 ? { issues } : { value: params as Params };
      },
    },
  };
}

const encodeCursor = (uri: string) => Buffer.from(`after:${uri}`, 'utf8').toString('base64url');
function decodeCursor(cursor: string): string {
  const decoded = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!decoded.startsWith('after:')) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor.slice(0, 100)} is not one this server gave`);
  return decoded.slice('after:'.length);
}

/** One page of `items` (sorted by URI) after the cursor's URI; an entry is never split across pages. */
function page<T extends { uri: string }>(items: readonly T[], cursor: string | undefined, size: number): { items: T[]; nextCursor?: string } {
  const after = cursor === undefined ? undefined : decodeCursor(cursor);
  const start = after === undefined ? 0 : items.findIndex((item) => item.uri > after);
  const from = start === -1 ? items.length : start;
  const slice = items.slice(from, from + size);
  return from + size < items.length ? { items: slice, nextCursor: encodeCursor(slice[slice.length - 1]!.uri) } : { items: slice };
}

/**
 * `skills/list`, `skills/get` and (when served) `resources/directory/read` on one session's server (SEP-2640).
 * A skill the caller may not see — its `SKILL.md` is a resource its scopes or guards hide — is neither listed
 * nor got, and its folders are not read: it is answered as one the server does not serve.
 */
export function answerSkills(runtime: SessionRuntime, shelf: SkillShelf): void {
  const { app, server } = runtime;
  const open = (ctx: ServerContext) => () => new SdkRequestChannel(ctx, server, undefined, runtime.services, undefined, runtime.connection);
  const visible = async (uri: string, ctx: ServerContext) => resourceVisible(app, uri, open(ctx));
  // Cacheable results on 2026-07-28 (SEP-2549): ttlMs and cacheScope are required there; a guarded catalogue stays private.
  const cached = <T extends object>(result: T): T => {
    if (!isModern(server)) return result;
    const hint = shelf.cacheHint;
    const scope = hint?.cacheScope === 'public' && !app.resources.listGuarded ? 'public' : 'private';
    return { ...result, ttlMs: hint?.ttlMs ?? 0, cacheScope: scope };
  };
  const fail = (error: unknown): never => {
    if (error instanceof ProtocolError) throw error;
    app.logger.error(`Cannot answer a skills request: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw new ProtocolError(ProtocolErrorCode.InternalError, 'Internal error');
  };

  // Each method runs inside the application's middleware (onRequest, then its own hook), as the other methods do.
  const served = <T>(method: 'skills/list' | 'skills/get' | 'resources/directory/read', raw: unknown, ctx: ServerContext, answer: (params: Params) => Promise<T>): Promise<never> =>
    wire(runtime, method, () => through(runtime, method, raw as Params, ctx, (params) => answer(params).catch(fail))) as Promise<never>;

  server.setRequestHandler(SKILLS_LIST_METHOD, { params: paramsSchema(SKILLS_LIST_METHOD, false) }, (raw: unknown, ctx: ServerContext) =>
    served('skills/list', raw, ctx, async (params) => {
      const all = shelf.entries();
      const shown = [];
      for (const skill of all) if (await visible(skill.uri, ctx)) shown.push(skill);
      const { items, nextCursor } = page(shown, params.cursor, shelf.pageSize);
      return cached({ skills: items, ...(nextCursor ? { nextCursor } : {}) });
    }),
  );

  server.setRequestHandler(SKILLS_GET_METHOD, { params: paramsSchema(SKILLS_GET_METHOD, true) }, (raw: unknown, ctx: ServerContext) =>
    served('skills/get', raw, ctx, async (params) => {
      const uri = params.uri!;
      const skill = shelf.entries().find((s) => s.uri === uri);
      if (skill === undefined || !(await visible(uri, ctx))) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `No skill is served at ${uri}`);
      return cached({ skill });
    }),
  );

  if (!shelf.directoryRead) return;
  server.setRequestHandler(RESOURCES_DIRECTORY_READ_METHOD, { params: paramsSchema(RESOURCES_DIRECTORY_READ_METHOD, true) }, (raw: unknown, ctx: ServerContext) =>
    served('resources/directory/read', raw, ctx, async (params) => {
      const uri = params.uri!;
      const catalogue = shelf.catalogueOf(uri);
      const children = catalogue?.options.directoryRead === false ? undefined : catalogue?.directory(uri);
      if (children === undefined || !(await visible(catalogue!.skillOf(uri)!, ctx))) {
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `${uri} is not a directory resource this server serves (a skill's folder, or one inside it)`);
      }
      const { items, nextCursor } = page(children, params.cursor, shelf.pageSize);
      return cached({ resources: items, ...(nextCursor ? { nextCursor } : {}) });
    }),
  );
}
