import { headerValueProblem } from './headers';
import type { ArgumentPlan } from './operation-schema';
import type { Operation, OperationParameter } from './operations';

/** A request ready to send: its URL is under the base URL (checked), its headers hold no CR, LF or NUL. */
export interface BuiltRequest {
  readonly method: string;
  readonly url: URL;
  /** Lower-case names: the arguments' header parameters, `accept` and `content-type`. */
  readonly headers: Map<string, string>;
  readonly body?: string | Uint8Array;
  /** `GET /repos/octo/hello` (no query): how messages name the request. */
  readonly label: string;
}

/** Why the arguments cannot make a request: the argument, what is wrong (a caller's mistake, told as one). */
export interface Refusal {
  readonly key: string;
  readonly why: string;
}

/** Where requests go: the base URL's origin and the path they stay under. */
export interface RequestBase {
  readonly baseUrl: URL;
  /** Without a trailing `/`; `''` for the origin's root. */
  readonly basePath: string;
}

type Part = string | { readonly key: string; readonly parameter: OperationParameter };

/**
 * Compiles, once per operation, the function that turns validated arguments into its request. Every path
 * parameter is encoded with `encodeURIComponent` (a `/`, `?` or `#` in a value stays inside its segment) and
 * refused when it is, or decodes to, a path with `.` or `..` segments; the URL is then built and refused unless
 * its origin is the base URL's and its path is exactly the base path followed by the operation's (nothing was
 * normalized away). Header values with CR, LF or NUL are refused. Redirects are never followed (the caller).
 */
export function compileRequest(operation: Operation, plan: ArgumentPlan, base: RequestBase): (args: Record<string, unknown>) => BuiltRequest | Refusal {
  const parts: Part[] = [];
  let last = 0;
  for (const match of operation.path.matchAll(/\{([^{}/]+)\}/g)) {
    parts.push(literal(operation.path.slice(last, match.index)));
    parts.push(plan.parameters.find((p) => p.parameter.in === 'path' && p.parameter.name === match[1])!);
    last = match.index! + match[0].length;
  }
  parts.push(literal(operation.path.slice(last)));
  const query = plan.parameters.filter((p) => p.parameter.in === 'query');
  const headers = plan.parameters.filter((p) => p.parameter.in === 'header');
  const { body } = plan;
  const { origin } = base.baseUrl;

  return (args) => {
    let path = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        path += part;
        continue;
      }
      const value = args[part.key];
      const traversal = pathProblem(value);
      if (traversal) return { key: part.key, why: traversal };
      path += pathValue(part.parameter, value);
    }
    const pairs: string[] = [];
    for (const { key, parameter, properties } of query) {
      const value = args[key];
      if (value === undefined || value === null) continue;
      if (properties && typeof value === 'object' && !Array.isArray(value)) {
        const undeclared = Object.keys(value).find((name) => !properties.has(name));
        if (undeclared !== undefined) {
          const shown = JSON.stringify(undeclared.length > 64 ? `${undeclared.slice(0, 64)}…` : undeclared);
          return { key, why: `${shown} is not a property of this parameter (each property is sent as its own query name, so only those its schema declares are sent${properties.size > 0 ? `: ${[...properties].join(', ')}` : ''})` };
        }
      }
      pairs.push(...queryPairs(parameter, value));
    }
    const target = `${base.basePath}${path}`;
    const url = new URL(`${origin}${target}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`);
    // The URL parser normalizes what it reads (dot segments, backslashes): anything it changed was not ours to send.
    if (url.origin !== origin || url.username !== '' || url.password !== '' || url.pathname !== target || !url.pathname.startsWith(`${base.basePath}/`)) {
      return { key: '', why: 'the request would leave the base URL' };
    }
    const sent = new Map<string, string>([['accept', operation.accept]]);
    for (const { key, parameter } of headers) {
      const value = args[key];
      if (value === undefined || value === null) continue;
      const text = parameter.json ? JSON.stringify(value) : simple(value, parameter.explode, String);
      const problem = headerValueProblem(text);
      if (problem) return { key, why: `the header value ${problem}` };
      sent.set(parameter.name.toLowerCase(), text);
    }
    let payload: string | Uint8Array | undefined;
    if (body && args[body.key] !== undefined) {
      payload = encodeBody(body.body.kind, args[body.key]);
      sent.set('content-type', body.body.contentType);
    }
    return { method: operation.method, url, headers: sent, ...(payload !== undefined ? { body: payload } : {}), label: `${operation.method} ${path}` };
  };
}

/** A literal part of the document's path as the URL parser writes it (what a path segment cannot hold, encoded). */
function literal(part: string): string {
  return part.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/gu, (c) => encodeURIComponent(c));
}

/**
 * Why a path parameter's value cannot be sent: empty, or a path of its own with a `.` or `..` segment, as
 * given or once percent-decoded (up to three times: a server that decodes `%2F` must not see `../` either).
 */
function pathProblem(value: unknown): string | undefined {
  const values = Array.isArray(value) ? value : typeof value === 'object' && value !== null ? Object.entries(value).flat() : [value];
  for (const item of values) {
    let text = item === undefined || item === null ? '' : String(item);
    if (text === '' && !Array.isArray(value)) return 'an empty path parameter would change the path';
    for (let round = 0; round < 4; round++) {
      if (text.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) return "a path parameter cannot be '.' or '..', or hold a '.' or '..' segment (even percent-encoded)";
      let decoded: string;
      try {
        decoded = decodeURIComponent(text);
      } catch {
        break; // not valid percent-encoding: it is sent encoded, as the literal text it is
      }
      if (decoded === text) break;
      text = decoded;
    }
  }
  return undefined;
}

const encode = (value: unknown) => encodeURIComponent(String(value));

/** OpenAPI 3 `simple` style: `a,b`, `k,v,k2,v2`, or exploded `k=v,k2=v2`. */
function simple(value: unknown, explode: boolean, each: (text: string) => string): string {
  if (Array.isArray(value)) return value.map((v) => each(String(v))).join(',');
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value)
      .map(([k, v]) => (explode ? `${each(k)}=${each(String(v))}` : `${each(k)},${each(String(v))}`))
      .join(',');
  }
  return each(String(value));
}

/** A path parameter in its style (`simple`, `label` `.x`, `matrix` `;id=x`), every value percent-encoded. */
function pathValue(parameter: OperationParameter, value: unknown): string {
  if (parameter.json) return encode(JSON.stringify(value));
  const { style, explode, name } = parameter;
  if (style === 'simple') return simple(value, explode, encodeURIComponent);
  const isList = Array.isArray(value);
  const isObject = !isList && typeof value === 'object' && value !== null;
  if (style === 'label') {
    if (!isList && !isObject) return `.${encode(value)}`;
    const items = isList ? (value as unknown[]).map(encode) : Object.entries(value as object).map(([k, v]) => (explode ? `${encode(k)}=${encode(v)}` : `${encode(k)},${encode(v)}`));
    return `.${items.join(explode ? '.' : ',')}`;
  }
  const key = encode(name);
  if (!isList && !isObject) return `;${key}=${encode(value)}`;
  if (isList) return explode ? (value as unknown[]).map((v) => `;${key}=${encode(v)}`).join('') : `;${key}=${(value as unknown[]).map(encode).join(',')}`;
  const entries = Object.entries(value as object);
  return explode ? entries.map(([k, v]) => `;${encode(k)}=${encode(v)}`).join('') : `;${key}=${entries.map(([k, v]) => `${encode(k)},${encode(v)}`).join(',')}`;
}

/** A query parameter in its style: `form` (exploded: one pair per item or property), space/pipe-delimited, `deepObject`. */
function queryPairs(parameter: OperationParameter, value: unknown): string[] {
  const key = encode(parameter.name);
  if (parameter.json) return [`${key}=${encode(JSON.stringify(value))}`];
  const { style, explode } = parameter;
  if (Array.isArray(value)) {
    if (style === 'spaceDelimited') return [`${key}=${value.map(encode).join('%20')}`];
    if (style === 'pipeDelimited') return [`${key}=${value.map(encode).join('%7C')}`];
    return explode ? value.map((v) => `${key}=${encode(v)}`) : [`${key}=${value.map(encode).join(',')}`];
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined);
    if (style === 'deepObject') return entries.map(([k, v]) => `${key}%5B${encode(k)}%5D=${encode(typeof v === 'object' ? JSON.stringify(v) : v)}`);
    return explode ? entries.map(([k, v]) => `${encode(k)}=${encode(v)}`) : [`${key}=${entries.map(([k, v]) => `${encode(k)},${encode(v)}`).join(',')}`];
  }
  return [`${key}=${encode(value)}`];
}

function encodeBody(kind: 'json' | 'form' | 'text' | 'binary', value: unknown): string | Uint8Array {
  switch (kind) {
    case 'json':
      return JSON.stringify(value);
    case 'text':
      return String(value);
    case 'binary':
      return new Uint8Array(Buffer.from(String(value), 'base64'));
    case 'form': {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) {
        if (v === undefined || v === null) continue;
        if (Array.isArray(v)) v.forEach((item) => form.append(k, typeof item === 'object' ? JSON.stringify(item) : String(item)));
        else form.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
      }
      return form.toString();
    }
  }
}
