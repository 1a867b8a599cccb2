import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { MODERN_REVISION } from '../../context';
import { BootstrapError, BootstrapErrorCode } from '../../errors';

/**
 * The server card (SEP-2127, MCP Server Cards): a static document describing a remote MCP server for discovery
 * before a client connects. Opt-in: `listen({ transport: 'http', serverCard: { name, description } })`.
 *
 * @example
 * await app.listen({ transport: 'http', port: 3000, serverCard: { name: 'io.github.acme/notes', description: 'Team notes: search, read and write.' } });
 */
export interface ServerCardOptions {
  /** The server's name in reverse-DNS form with one slash, as in the MCP Registry: `io.github.acme/notes`. */
  name: string;
  /** What the server does, 1 to 100 characters (capabilities, not implementation). */
  description: string;
  /** Display name, at most 100 characters. Default: the application's `title` (`McpModule.forRoot({ title })`). */
  title?: string;
  /** Default: the application's `version` (what `initialize` and `server/discover` report). */
  version?: string;
  /** The server's home page or documentation. */
  websiteUrl?: string;
  /** Where its source is (`source`: the forge, e.g. `github`). */
  repository?: { url: string; source: string; subfolder?: string; id?: string };
  /** Icons a client may show. */
  icons?: ReadonlyArray<{ src: string; mimeType?: string; sizes?: string[]; theme?: 'light' | 'dark' }>;
  /**
   * The endpoint's public URL, as clients reach it (behind a proxy or a tunnel). Default: `auth.resource`, else
   * the URL `listen()` bound, else the URL of the request for the card without its `/server-card` suffix.
   */
  url?: string;
  /** Extension metadata of your own, under reverse-DNS keys; merged with what mcp-reflect adds (`io.github.mcp-reflect/…`). */
  _meta?: Record<string, unknown>;
}

/** The card's JSON Schema (the experimental extension's v1; `$schema` of every card). */
export const SERVER_CARD_SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v1/server-card.schema.json';
/** The card's media type (SEP-2127 discovery: clients send it in `Accept`, servers answer with it). */
export const SERVER_CARD_MEDIA_TYPE = 'application/mcp-server-card+json';
/** Where earlier drafts of SEP-2127 (and the Python SDK) serve the card; the current text reserves `<endpoint>/server-card`. */
export const SERVER_CARD_WELL_KNOWN = '/.well-known/mcp/server-card';
const SUFFIX = '/server-card';
const NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;

/** What the card is built from, read at each request (the application's extensions change with its catalogue). */
export interface ServerCardSource {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string };
  /** The capabilities a session declares now (their `extensions`, if any, go in the card). */
  capabilities(): Record<string, object>;
  /** With `auth`: the protected resource metadata document and its URL. */
  readonly auth?: { readonly metadataUrl: string; readonly metadata: () => Promise<Record<string, unknown>> };
}

/** The card paths of an endpoint served at `endpointPath`: `<endpoint>/server-card` (SEP-2127) and the well-known one. */
export function serverCardPaths(endpointPath: string): string[] {
  return [`${endpointPath.replace(/\/+$/, '')}${SUFFIX}`, SERVER_CARD_WELL_KNOWN];
}

/** The card of one endpoint: checked once (bootstrap), built per request from `source`, answered with its cache validators. */
export class ServerCard {
  private readonly url?: string;
  /** The authorization part, read once from the protected resource metadata (a static document). */
  private authorization?: Promise<Record<string, unknown>>;
  /** The last card answered, by what it was built from: a request for the same card is a lookup. */
  private last?: { key: string; body: string; etag: string };
  /** Where the card is served, when the endpoint's URL is known; otherwise any `…/server-card` routed here. */
  readonly paths: readonly string[];

  constructor(
    private readonly options: ServerCardOptions,
    private readonly source: ServerCardSource,
    endpointUrl: string | undefined,
  ) {
    checkCardOptions(options, source.info.version);
    this.url = options.url ?? endpointUrl;
    this.paths = this.url ? serverCardPaths(new URL(this.url).pathname) : [SERVER_CARD_WELL_KNOWN];
  }

  /** Whether `pathname` names the card. */
  answers(pathname: string): boolean {
    return this.paths.includes(pathname) || (this.url === undefined && pathname.endsWith(SUFFIX));
  }

  /** The card document (what `GET` answers). */
  async document(requestUrl: URL): Promise<Record<string, unknown>> {
    const { options, source } = this;
    const url = this.url ?? (requestUrl.pathname.endsWith(SUFFIX) ? `${requestUrl.origin}${requestUrl.pathname.slice(0, -SUFFIX.length)}` : undefined);
    const title = options.title ?? source.info.title;
    const meta: Record<string, unknown> = { ...options._meta };
    const auth = source.auth;
    if (auth) {
      this.authorization ??= auth.metadata().then((document) => ({
        resourceMetadata: auth.metadataUrl,
        resource: document.resource,
        authorizationServers: document.authorization_servers,
        ...(document.scopes_supported ? { scopesSupported: document.scopes_supported } : {}),
      }));
      meta['io.github.mcp-reflect/authorization'] = await this.authorization;
    }
    const extensions = (source.capabilities() as { extensions?: Record<string, unknown> }).extensions;
    if (extensions && Object.keys(extensions).length > 0) meta['io.github.mcp-reflect/extensions'] = extensions;
    return {
      $schema: SERVER_CARD_SCHEMA,
      name: options.name,
      version: options.version ?? source.info.version,
      description: options.description,
      ...(title ? { title } : {}),
      ...(options.websiteUrl ? { websiteUrl: options.websiteUrl } : {}),
      ...(options.repository ? { repository: options.repository } : {}),
      ...(options.icons ? { icons: options.icons } : {}),
      // The endpoint serves the 2026-07-28 envelope and the 2025 eras (sessions, or per request when stateless).
      ...(url ? { remotes: [{ type: 'streamable-http', url, supportedProtocolVersions: [...new Set([MODERN_REVISION, ...SUPPORTED_PROTOCOL_VERSIONS])] }] } : {}),
      ...(Object.keys(meta).length > 0 ? { _meta: meta } : {}),
    };
  }

  /**
   * The answer to a request for the card: GET and HEAD with the card's media type, an `ETag`, and `Cache-Control`
   * (304 when `If-None-Match` names the current one); OPTIONS (CORS preflight) 204; any other method 405. Any
   * origin may read it (SEP-2127: CORS on the card; it holds public metadata only).
   */
  async respond(request: Request): Promise<Response> {
    const cors = {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': 'Content-Type, If-None-Match',
      'access-control-expose-headers': 'ETag',
    };
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'GET' && request.method !== 'HEAD') return new Response(null, { status: 405, headers: { ...cors, allow: 'GET, HEAD, OPTIONS' } });
    const { body, etag } = await this.serialized(new URL(request.url));
    const headers = { ...cors, 'content-type': SERVER_CARD_MEDIA_TYPE, 'cache-control': 'public, max-age=3600', etag };
    const validators = request.headers.get('if-none-match');
    if (validators && (validators.trim() === '*' || validators.split(',').some((v) => v.trim().replace(/^W\//, '') === etag))) {
      return new Response(null, { status: 304, headers });
    }
    return new Response(request.method === 'HEAD' ? null : body, { status: 200, headers });
  }

  /** The card as sent, and its entity tag; rebuilt only when what it is built from changed (the extensions, the URL). */
  private async serialized(requestUrl: URL): Promise<{ body: string; etag: string }> {
    const key = `${this.url ?? requestUrl.origin + requestUrl.pathname}\n${JSON.stringify(this.source.capabilities().extensions ?? null)}`;
    if (this.last?.key === key) return this.last;
    const body = JSON.stringify(await this.document(requestUrl));
    this.last = { key, body, etag: `"${digest(body)}"` };
    return this.last;
  }
}

/** A short, stable digest of the card (FNV-1a, 2 × 32 bits): an entity tag, not a security check; no node:crypto on edge runtimes. */
function digest(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}

/** The card's rules (the v1 schema of SEP-2127's card), checked as the endpoint starts: a bad card never reaches a client. */
function checkCardOptions(options: ServerCardOptions, appVersion: string): void {
  const problems: string[] = [];
  const { name, description, title, url, websiteUrl } = options as Partial<ServerCardOptions>;
  if (typeof name !== 'string' || !NAME.test(name) || name.length < 3 || name.length > 200) {
    problems.push(`name ${JSON.stringify(name)} is not a reverse-DNS name with one slash (3 to 200 characters of letters, digits, '.', '-', '_'), e.g. 'io.github.acme/notes'`);
  }
  if (typeof description !== 'string' || description.length < 1 || description.length > 100) {
    problems.push(`description must be 1 to 100 characters (it is ${typeof description === 'string' ? `${description.length} characters` : 'missing'})`);
  }
  if (title !== undefined && (title.length < 1 || title.length > 100)) problems.push(`title must be 1 to 100 characters (it is ${title.length})`);
  const version = options.version ?? appVersion;
  if (/^[\^~><=]|\.[x*](\.|$)|^[x*]$/.test(version) || version.length > 255) problems.push(`version '${version}' is a range or too long: give one version, e.g. '1.2.3'`);
  for (const [field, value] of [['url', url], ['websiteUrl', websiteUrl]] as const) {
    if (value !== undefined && (!URL.canParse(value) || !/^https?:$/.test(new URL(value).protocol))) problems.push(`${field} '${value}' is not an http(s) URL`);
  }
  if (problems.length === 0) return;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot serve the server card (serverCard): ${problems.join('; ')}.\nFix: correct serverCard in the HTTP options (docs/http.md#server-card).`,
  );
}
