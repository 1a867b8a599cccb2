import type { ServerLogger } from '../interfaces';
import type { ProtocolApplication } from './protocol-application';

/**
 * SEP-2243 (protocol 2026-07-28, Streamable HTTP "Schema Extension"): a tool argument whose schema carries
 * `"x-mcp-header": "Name"` is mirrored by the client into the `Mcp-Param-Name` header. The server refuses a
 * `tools/call` whose header is missing, undecodable or disagrees with the body (HTTP 400, -32020). The rules
 * follow the SDK's `scanXMcpHeaderDeclarations` / `validateMcpParamHeaders`, which only its `McpServer` runs.
 */

/** One mirrored argument of a tool: where it is in `arguments`, and its header. */
export interface ParamHeader {
  readonly path: readonly string[];
  /** The full header name, `Mcp-Param-<suffix>`. */
  readonly header: string;
  readonly type: string;
}

/** A refusal: the JSON-RPC error to answer with (HTTP 400). */
export interface ParamHeaderRejection {
  readonly message: string;
  readonly data: { readonly mismatch: { readonly header: string; readonly body: string } };
}

export const HEADER_MISMATCH = -32020;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const TYPES = new Set(['string', 'integer', 'boolean']);
// Keywords whose subschemas are not reached through a chain of `properties`: a declaration there is invalid.
const UNREACHABLE = ['items', 'prefixItems', 'contains', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems',
  'propertyNames', 'patternProperties', 'dependentSchemas', 'oneOf', 'anyOf', 'allOf', 'not', 'if', 'then', 'else', '$defs', 'definitions'];
const KEYED = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/**
 * The declarations of one input schema, or why they are invalid. A `number` property is against the revision
 * but still checked (compared as a number), as the SDK does: it comes back with its declarations and a reason.
 */
export function scanParamHeaders(schema: unknown): { declarations: ParamHeader[]; invalid?: string } | { invalid: string } {
  const declarations: ParamHeader[] = [];
  const seen = new Map<string, string>();
  let numberFault: string | undefined;
  const visit = (node: unknown, path: string[], reachable: boolean): string | undefined => {
    if (node === null || typeof node !== 'object') return undefined;
    const schema = node as Record<string, unknown>;
    if ('x-mcp-header' in schema) {
      const where = path.length === 0 ? '<root>' : path.join('.');
      const name = schema['x-mcp-header'];
      if (!reachable || path.length === 0) return `${where}: x-mcp-header is only allowed on a property reached through 'properties' alone`;
      if (typeof name !== 'string' || !TOKEN.test(name)) return `${where}: x-mcp-header ${JSON.stringify(name)} is not an RFC 9110 token`;
      const type = typeof schema.type === 'string' ? schema.type : undefined;
      if (type === undefined || !TYPES.has(type)) {
        const fault = `${where}: x-mcp-header needs a string, integer or boolean property, not ${type ?? 'an untyped one'}`;
        if (type !== 'number') return fault;
        numberFault ??= fault;
      }
      const prior = seen.get(name.toLowerCase());
      if (prior !== undefined) return `x-mcp-header '${name}' is declared twice (also as '${prior}'; names compare ignoring case)`;
      seen.set(name.toLowerCase(), name);
      declarations.push({ path, header: `Mcp-Param-${name}`, type: type! });
    }
    const properties = schema.properties;
    if (properties !== null && typeof properties === 'object') {
      for (const [key, child] of Object.entries(properties)) {
        const fault = visit(child, [...path, key], reachable);
        if (fault) return fault;
      }
    }
    for (const keyword of UNREACHABLE) {
      const sub = schema[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub) ? sub : KEYED.has(keyword) && sub !== null && typeof sub === 'object' ? Object.values(sub) : [sub];
      for (const branch of branches) {
        const fault = visit(branch, [...path, `<${keyword}>`], false);
        if (fault) return fault;
      }
    }
    return undefined;
  };
  const fault = visit(schema, [], true);
  if (fault !== undefined) return { invalid: fault };
  return numberFault === undefined ? { declarations } : { declarations, invalid: numberFault };
}

/**
 * Tool name → its mirrored arguments, for the tools that have some: computed once per change of the tool
 * catalogue. A schema written by hand with an invalid declaration is reported once and not checked (the
 * `@Param({ header })` option is validated at bootstrap).
 */
export function paramHeaderMap(app: ProtocolApplication, logger: ServerLogger): ReadonlyMap<string, readonly ParamHeader[]> {
  return app.tools.memo('paramHeaders', () => {
    const map = new Map<string, readonly ParamHeader[]>();
    for (const tool of app.tools.values()) {
      const scan = scanParamHeaders(tool.descriptor.inputSchema); // as clients see it: transformed arguments under their served names
      if (!('declarations' in scan)) logger.warn(`Tool '${tool.name}': its Mcp-Param headers are not checked: ${scan.invalid}.`);
      else {
        if (scan.invalid) logger.warn(`Tool '${tool.name}': ${scan.invalid}; its Mcp-Param headers are checked all the same (numbers compare as numbers).`);
        if (scan.declarations.length > 0) map.set(tool.name, scan.declarations);
      }
    }
    return map;
  });
}

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const DECIMAL = /^-?\d+(\.\d+)?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** A header value as text: `=?base64?…?=` decoded strictly (canonical Base64, valid UTF-8), else literal; undefined when invalid. */
export function decodeParamHeader(value: string): string | undefined {
  if (!(value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX) && value.length >= SENTINEL_PREFIX.length + SENTINEL_SUFFIX.length)) return value;
  const payload = value.slice(SENTINEL_PREFIX.length, value.length - SENTINEL_SUFFIX.length);
  if (!CANONICAL_BASE64.test(payload)) return undefined;
  try {
    return utf8.decode(Buffer.from(payload, 'base64'));
  } catch {
    return undefined;
  }
}

/** The text a header carries for a body value (the revision's conversion rules); undefined: no header expected. */
function headerText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isFinite(value) && (!Number.isInteger(value) || Number.isSafeInteger(value))) return String(value);
  return undefined;
}

/** Checks a call's headers against its tool's mirrored arguments; undefined when they agree. */
export function checkParamHeaders(
  declarations: readonly ParamHeader[],
  args: unknown,
  headers: Headers,
): ParamHeaderRejection | undefined {
  for (const { path, header, type } of declarations) {
    let body: unknown = args;
    for (const key of path) body = body !== null && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
    // An absent (or null) argument expects no header; a present header is then ignored.
    const expected = body === undefined || body === null ? undefined : headerText(body);
    if (expected === undefined) continue;
    const where = `${path.join('.')}=${clip(JSON.stringify(body))}`;
    const raw = headers.get(header);
    if (raw === null) return reject(header, `the body carries ${where} but the ${header} header is absent`);
    const decoded = decodeParamHeader(raw);
    if (decoded === undefined) return reject(header, `the ${header} header is not valid Base64 inside =?base64?…?=`);
    const numeric = (type === 'integer' || type === 'number') && typeof body === 'number' && DECIMAL.test(decoded);
    const equal = numeric ? Number(decoded) === body : decoded === expected;
    if (!equal) return reject(header, `the ${header} header says ${clip(JSON.stringify(decoded))} but the body carries ${where}`);
  }
  return undefined;
}

/** Values quoted in a refusal (answered, and logged) are cut to this many characters: a client fills them. */
const QUOTED_MAX = 80;

function clip(text: string): string {
  return text.length <= QUOTED_MAX ? text : `${text.slice(0, QUOTED_MAX)}… (${text.length} characters)`;
}

function reject(header: string, body: string): ParamHeaderRejection {
  return { message: `Bad Request: the request headers and body disagree: ${body}.`, data: { mismatch: { header, body } } };
}
