import { checkTransforms, NAMESPACE_PATTERN } from '../catalogue';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { headerValueProblem, isHeaderName, isReservedHeader } from './headers';
import type { McpOpenApiOptions, OpenApiRule } from './openapi.options';

const METHODS = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];
const RULE_KEYS = ['tags', 'methods', 'paths', 'operationIds'];

/** Where the document comes from, read at bootstrap. */
export type DocumentSource = { readonly kind: 'object'; readonly value: object } | { readonly kind: 'url'; readonly url: URL } | { readonly kind: 'file'; readonly path: string };

/** The options of `McpModule.fromOpenApi()` once checked, with their defaults. */
export interface OpenApiSettings {
  readonly namespace: string;
  readonly server?: string;
  readonly source: DocumentSource;
  /** How messages name the document: its URL (no query), its path, or its title. */
  readonly label: string;
  readonly baseUrl: URL;
  /** The path every request stays under: `baseUrl`'s, without a trailing `/` (`''` for the origin's root). */
  readonly basePath: string;
  readonly include?: readonly OpenApiRule[];
  readonly exclude: readonly OpenApiRule[];
  /** The GETs served as resources; undefined: none. */
  readonly resources?: readonly OpenApiRule[];
  readonly headers?: McpOpenApiOptions['headers'];
  /** Lower case. */
  readonly forwardHeaders: readonly string[];
  readonly upstreamToken?: McpOpenApiOptions['upstreamToken'];
  readonly timeout: number;
  readonly maxResponseBytes: number;
  readonly documentTimeout: number;
  readonly maxDocumentBytes: number;
  readonly outputSchemas: boolean;
  readonly maxSchemaDepth: number;
  readonly scopes?: McpOpenApiOptions['scopes'];
  readonly transforms?: McpOpenApiOptions['transforms'];
}

/** The options of `McpModule.fromOpenApi()`, checked where the module is declared (each mistake named with its fix). */
export function checkOpenApiOptions(options: McpOpenApiOptions): OpenApiSettings {
  const fail = (cause: string, fix: string) =>
    new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot use McpModule.fromOpenApi(${describe(options)}): ${cause}.\nFix: ${fix}.`);
  if (!options || typeof options !== 'object') {
    throw fail('it takes an options object', "give McpModule.fromOpenApi({ namespace: 'api', document: './openapi.json', baseUrl: 'https://api.example.com' })");
  }
  if (typeof options.namespace !== 'string' || !NAMESPACE_PATTERN.test(options.namespace)) {
    throw fail(
      `the namespace ${JSON.stringify(options.namespace) ?? 'is missing'}${typeof options.namespace === 'string' ? ' is not 1 to 64 letters, digits, "-" or ".", starting with a letter or a digit' : ''} (it prefixes every component of the API)`,
      "give a short namespace, e.g. namespace: 'github'",
    );
  }
  const source = documentSource(options.document);
  if (!source) throw fail('document is neither a document object, a file path nor an http(s) URL', "give the document itself, a path ('./openapi.yaml') or a URL ('https://api.example.com/openapi.json')");
  const base = URL.canParse(String(options.baseUrl ?? '')) ? new URL(String(options.baseUrl)) : undefined;
  // Named without what it may hold of a secret (user:password@, a query).
  const shown = base ? `'${base.protocol}//${base.host}${base.pathname}'` : options.baseUrl === undefined ? 'is missing and' : JSON.stringify(String(options.baseUrl));
  const wrong = !base
    ? 'is not a URL'
    : base.protocol !== 'http:' && base.protocol !== 'https:'
      ? 'is not an http(s) URL'
      : base.username || base.password
        ? 'holds credentials (user:password@)'
        : base.search || base.hash
          ? 'has a query or a fragment'
          : undefined;
  if (!base || wrong) throw fail(`baseUrl ${shown} ${wrong} (every request goes there)`, "give where the API is, e.g. baseUrl: 'https://api.example.com/v1' (credentials go in headers)");
  const rules = (value: unknown, name: string): OpenApiRule[] | undefined => {
    if (value === undefined) return undefined;
    const list = Array.isArray(value) ? value : [value];
    for (const rule of list) {
      const problem = ruleProblem(rule);
      if (problem) throw fail(`${name} ${problem}`, `give ${name}: { tags: ['pets'], methods: ['GET'], paths: ['/pets/*'], operationIds: ['listPets'] } (any of these criteria), or a list of such rules`);
    }
    return list as OpenApiRule[];
  };
  const include = rules(options.include, 'include');
  const exclude = rules(options.exclude, 'exclude') ?? [];
  const resources = options.resources === true ? [{}] : options.resources === false || options.resources === undefined ? undefined : rules(options.resources, 'resources');
  if (typeof options.headers === 'object' && options.headers !== null) {
    for (const [name, value] of Object.entries(options.headers)) {
      const problem = !isHeaderName(name) ? 'is not a header name' : typeof value !== 'string' ? 'has a value that is not a string' : headerValueProblem(value);
      if (problem) throw fail(`the header ${JSON.stringify(name)} in headers ${problem}`, "give header names and string values without CR, LF or NUL, e.g. headers: { 'x-api-key': process.env.API_KEY }");
    }
  } else if (options.headers !== undefined && typeof options.headers !== 'function') {
    throw fail('headers is neither an object nor a function', "give headers: { 'x-api-key': '…' }, or headers: (ctx) => ({ … }) to compute them per call");
  }
  const forwardHeaders = (options.forwardHeaders ?? []).map((name) => {
    if (typeof name !== 'string' || !isHeaderName(name) || isReservedHeader(name)) {
      throw fail(
        `forwardHeaders names ${JSON.stringify(name)}, which ${typeof name === 'string' && isHeaderName(name) ? 'cannot be passed on (credentials, framing, MCP and proxy headers never are)' : 'is not a header name'}`,
        "name headers such as 'accept-language' or 'x-request-id'; an API credential goes in headers or upstreamToken",
      );
    }
    return name.toLowerCase();
  });
  if (options.upstreamToken !== undefined && typeof options.upstreamToken !== 'function') {
    throw fail('upstreamToken is not a function', 'give upstreamToken: (ctx) => tokenFor(ctx.auth?.subject), which returns the caller\'s own token for the API');
  }
  const whole = (key: 'timeout' | 'maxResponseBytes' | 'documentTimeout' | 'maxDocumentBytes' | 'maxSchemaDepth', fallback: number, example: number): number => {
    const value = options[key];
    if (value === undefined) return fallback;
    if (Number.isSafeInteger(value) && value > 0) return value;
    throw fail(`${key} is ${JSON.stringify(value)}, not a whole number above 0`, `give ${key}: ${example}`);
  };
  if (options.outputSchemas !== undefined && typeof options.outputSchemas !== 'boolean') throw fail('outputSchemas is not a boolean', 'give outputSchemas: false (or leave it out)');
  if (options.scopes !== undefined && typeof options.scopes !== 'function' && !(Array.isArray(options.scopes) && options.scopes.every((s) => typeof s === 'string'))) {
    throw fail('scopes is neither a list of scopes nor a function', "give scopes: ['api:read'], or scopes: (operation) => (operation.method === 'GET' ? ['api:read'] : ['api:write'])");
  }
  checkTransforms(options.transforms, 'McpModule.fromOpenApi');
  if (options.server !== undefined && typeof options.server !== 'string') throw fail('server is not the name of a server', "give the name of one McpModule.forRoot({ name }), e.g. server: 'admin'");
  return {
    namespace: options.namespace,
    ...(options.server !== undefined ? { server: options.server } : {}),
    source,
    label: labelOf(source),
    baseUrl: base,
    basePath: base.pathname.replace(/\/+$/, ''),
    ...(include ? { include } : {}),
    exclude,
    ...(resources ? { resources } : {}),
    ...(options.headers !== undefined ? { headers: options.headers } : {}),
    forwardHeaders,
    ...(options.upstreamToken ? { upstreamToken: options.upstreamToken } : {}),
    timeout: whole('timeout', 30_000, 10_000),
    maxResponseBytes: whole('maxResponseBytes', 8 * 1024 * 1024, 1024 * 1024),
    documentTimeout: whole('documentTimeout', 10_000, 30_000),
    maxDocumentBytes: whole('maxDocumentBytes', 64 * 1024 * 1024, 16 * 1024 * 1024),
    outputSchemas: options.outputSchemas ?? true,
    maxSchemaDepth: whole('maxSchemaDepth', 32, 16),
    ...(options.scopes !== undefined ? { scopes: options.scopes } : {}),
    ...(options.transforms !== undefined ? { transforms: options.transforms } : {}),
  };
}

function documentSource(document: unknown): DocumentSource | undefined {
  if (document instanceof URL || typeof document === 'string') {
    const text = String(document);
    if (text === '') return undefined;
    const url = /^[A-Za-z][A-Za-z0-9+.-]+:/.test(text) && URL.canParse(text) ? new URL(text) : undefined;
    if (!url) return { kind: 'file', path: text };
    if (url.protocol === 'http:' || url.protocol === 'https:') return { kind: 'url', url };
    if (url.protocol === 'file:') return { kind: 'file', path: decodeURIComponent(url.pathname) };
    return undefined;
  }
  if (typeof document === 'object' && document !== null && !Array.isArray(document)) return { kind: 'object', value: document };
  return undefined;
}

/** The document in messages: a URL without its query (which may hold a key), a path, or the title it gives itself. */
function labelOf(source: DocumentSource): string {
  if (source.kind === 'url') return source.url.origin + source.url.pathname;
  if (source.kind === 'file') return source.path;
  const info = (source.value as { info?: { title?: unknown; version?: unknown } }).info;
  return typeof info?.title === 'string' ? `'${info.title}'${typeof info.version === 'string' ? ` ${info.version}` : ''} (an object)` : '(an object)';
}

function ruleProblem(rule: unknown): string | undefined {
  if (typeof rule !== 'object' || rule === null || Array.isArray(rule)) return 'is not a rule object';
  const record = rule as Record<string, unknown>;
  const unknown = Object.keys(record).find((key) => !RULE_KEYS.includes(key));
  if (unknown) return `has the criterion '${unknown}', which is not one of ${RULE_KEYS.join(', ')}`;
  for (const key of ['tags', 'operationIds'] as const) {
    if (record[key] !== undefined && !(Array.isArray(record[key]) && (record[key] as unknown[]).every((v) => typeof v === 'string'))) return `has ${key} that is not a list of strings`;
  }
  if (record.methods !== undefined && !(Array.isArray(record.methods) && record.methods.every((m) => typeof m === 'string' && METHODS.includes(m.toUpperCase())))) {
    return `has methods that are not HTTP methods (${METHODS.join(', ')})`;
  }
  if (record.paths !== undefined && !(Array.isArray(record.paths) && record.paths.every((p) => typeof p === 'string' || p instanceof RegExp))) return 'has paths that are neither strings nor RegExps';
  return undefined;
}

function describe(options: McpOpenApiOptions | undefined): string {
  return options && typeof options === 'object' && typeof options.namespace === 'string' ? `{ namespace: '${options.namespace}', … }` : '…';
}
