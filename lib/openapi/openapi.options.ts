import type { Context } from '../context';
import type { ComponentTransforms } from '../interfaces';

/** An HTTP method an OpenAPI path item can name. */
export type OpenApiMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'OPTIONS' | 'HEAD' | 'PATCH' | 'TRACE';

/**
 * Which operations of the document a rule names. Every criterion given must match; a list matches when any
 * of its entries does. `{ tags: ['issues'], methods: ['GET'] }`: the GETs tagged `issues`.
 */
export interface OpenApiRule {
  /** The operation has one of these tags. */
  readonly tags?: readonly string[];
  /** The operation's method is one of these (any case). */
  readonly methods?: readonly (OpenApiMethod | Lowercase<OpenApiMethod>)[];
  /**
   * Its path, as the document writes it (`/repos/{owner}/{repo}`): a string matches exactly, or with `*` (any
   * characters but `/`) and `**` (any characters); a RegExp is tested against the path.
   */
  readonly paths?: readonly (string | RegExp)[];
  /** Its `operationId` is one of these. */
  readonly operationIds?: readonly string[];
}

/** One operation, as the options' functions (`scopes`) see it. */
export interface OpenApiOperationInfo {
  /** Upper case: `GET`, `POST` … */
  readonly method: OpenApiMethod;
  /** As the document writes it: `/repos/{owner}/{repo}`. */
  readonly path: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  /** The name its tool (or resource) is served under, before the namespace. */
  readonly name: string;
}

/**
 * Options of `McpModule.fromOpenApi()`: an HTTP API described by an OpenAPI 3.0 or 3.1 document, each of
 * its operations served as a tool (or, by the `resources` rule, a GET as a resource) that calls the API.
 */
export interface McpOpenApiOptions {
  /**
   * Prefixes every component (`<namespace>_<operation>`, `openapi://<namespace>/…`); required, so that two
   * APIs (or an API and local tools) cannot collide.
   */
  readonly namespace: string;
  /** In an application with several servers: the name of the server that serves the API's components. */
  readonly server?: string;
  /**
   * The document: an object (e.g. what `SwaggerModule.createDocument()` returns), the path of a JSON or YAML
   * file, or an `http(s)` URL (read once, at bootstrap). `$ref`s inside it are resolved; a `$ref` to another
   * file or URL is refused (bundle the document first).
   */
  readonly document: string | URL | Readonly<Record<string, unknown>>;
  /**
   * Where the API is: every request goes to this origin, under this path (`https://api.github.com`,
   * `http://127.0.0.1:3000/api`). The document's `servers` are not used: no request leaves `baseUrl`,
   * whatever the arguments or the document say.
   */
  readonly baseUrl: string | URL;
  /** Only the operations this rule names (or any of these rules) are served (default: all). */
  readonly include?: OpenApiRule | readonly OpenApiRule[];
  /** The operations this rule names (or any of these rules) are not served, even if included. */
  readonly exclude?: OpenApiRule | readonly OpenApiRule[];
  /**
   * Which GET operations become resources instead of tools: `true` for every GET whose only required
   * parameters are path parameters (a resource without them, a resource template with them), or a rule that
   * narrows those (default: none; every operation is a tool).
   */
  readonly resources?: boolean | OpenApiRule | readonly OpenApiRule[];
  /**
   * Headers sent with every request: fixed (an API key from your configuration), or computed per call from
   * the caller's Context. They win over header parameters the caller gives. A value with CR, LF or NUL is
   * refused; a value that carries the caller's MCP access token is refused too.
   */
  readonly headers?: Readonly<Record<string, string>> | ((ctx: Context) => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>);
  /**
   * Names of the caller's own HTTP request headers passed on as they came (`['accept-language']`), when the
   * call came over HTTP. `authorization`, `cookie`, `host` and the `mcp-*` headers cannot be named.
   */
  readonly forwardHeaders?: readonly string[];
  /**
   * The caller's own token for the API (one your server obtained for that user: a token exchange, a stored
   * grant), sent as `Authorization: Bearer …`. Never the MCP access token the caller presented here: a
   * function that returns it fails the call.
   */
  readonly upstreamToken?: (ctx: Context) => string | undefined | Promise<string | undefined>;
  /** How long one request may take, answer included, in ms (default 30 000). */
  readonly timeout?: number;
  /** The largest answer read, in bytes (default 8 MiB): a bigger one fails the call naming the bound. */
  readonly maxResponseBytes?: number;
  /**
   * How long the whole load may take, in ms (default 10 000): reading a document from a file or a URL, parsing it,
   * resolving its `$ref`s and converting the schemas of its operations.
   */
  readonly documentTimeout?: number;
  /** The largest document read from a file or a URL, in bytes (default 64 MiB). */
  readonly maxDocumentBytes?: number;
  /**
   * Advertise the schema of each operation's success answer as the tool's `outputSchema` (checked against the
   * answer, compiled on a tool's first call), when every 2xx answer it declares is JSON of one schema
   * (default true). Set it to false for an API whose answers stray from its document.
   */
  readonly outputSchemas?: boolean;
  /**
   * How deep a schema is expanded (default 32): a recursive schema is cut where it recurs, and anything nested
   * deeper than this, with the permissive `{}`, so that no advertised schema holds a `$ref`.
   */
  readonly maxSchemaDepth?: number;
  /**
   * OAuth scopes a caller needs to see and call the API's components (as `@Scopes()` gives them): the same for
   * every operation, or per operation (a function; undefined: none).
   */
  readonly scopes?: readonly string[] | ((operation: OpenApiOperationInfo) => readonly string[] | undefined);
  /**
   * Transforms of the API's tools, resources and templates, keyed by the names they are given before the
   * namespace (an operation's `operationId`, made a valid name): rename, reword, retag, disable, and rename,
   * hide or default a tool's arguments (a `hide: { fn }` argument computed from the caller's Context, say). A
   * name that names no served operation fails the bootstrap (docs/composition.md#transforms).
   */
  readonly transforms?: ComponentTransforms;
}
