import { isHeaderName, reservedHeaderReason } from './headers';
import { DocumentProblem, operationLabel, pointerOf } from './openapi.messages';
import type { OpenApiMethod, OpenApiRule } from './openapi.options';
import type { OpenApiDocument } from './document-loader';
import type { OpenApiSettings } from './openapi-options.check';
import { refLoop, refLoopProblem } from './ref-loops';

export type ParameterLocation = 'path' | 'query' | 'header';

/** A parameter of an operation, as the request builder serializes it (OpenAPI 3 `style` and `explode`). */
export interface OperationParameter {
  readonly name: string;
  readonly in: ParameterLocation;
  readonly required: boolean;
  readonly style: 'simple' | 'label' | 'matrix' | 'form' | 'spaceDelimited' | 'pipeDelimited' | 'deepObject';
  readonly explode: boolean;
  /** The schema as the document gives it (`schema`, or the schema of its one `content` entry). */
  readonly schema: unknown;
  /** Declared with `content: { 'application/json': … }`: the value is sent as JSON text. */
  readonly json: boolean;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly pointer: string;
}

/** How a request body is sent. */
export type BodyKind = 'json' | 'form' | 'text' | 'binary';

export interface OperationBody {
  readonly contentType: string;
  readonly kind: BodyKind;
  readonly schema: unknown;
  readonly required: boolean;
  readonly description?: string;
  readonly pointer: string;
}

/** One operation of the document, selected to be served, with what its tool (or resource) is built from. */
export interface Operation {
  readonly method: OpenApiMethod;
  readonly path: string;
  readonly operationId?: string;
  readonly tags: readonly string[];
  readonly summary?: string;
  readonly description?: string;
  readonly deprecated: boolean;
  readonly parameters: readonly OperationParameter[];
  readonly body?: OperationBody;
  /** The JSON schema of its success answers, when every 2xx answer it declares is JSON of that one schema. */
  readonly success?: { readonly schema: unknown; readonly pointer: string };
  /** The `Accept` header: the media types of its 2xx answers. */
  readonly accept: string;
  /** The first media type its 2xx answers declare. */
  readonly responseType?: string;
  readonly pointer: string;
}

const METHODS: readonly OpenApiMethod[] = ['GET', 'PUT', 'POST', 'DELETE', 'OPTIONS', 'HEAD', 'PATCH', 'TRACE'];
const STYLES: Record<ParameterLocation, readonly OperationParameter['style'][]> = {
  path: ['simple', 'label', 'matrix'],
  query: ['form', 'spaceDelimited', 'pipeDelimited', 'deepObject'],
  header: ['simple'],
};

/** A media type a header can carry (`type/subtype`, parameters): the document's keys become `Accept` and `Content-Type`. */
const MEDIA_TYPE = /^[A-Za-z0-9!#$&^_.+-]+\/[A-Za-z0-9!#$&^_.+*-]+(?:\s*;[\t\x20-\x7e]*)?$/;

/** `application/json`, `application/problem+json`, `application/vnd.github+json; charset=utf-8` … */
export function isJsonType(type: string): boolean {
  return /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type.trim());
}

/** Told of what is not served: an operation left out, or a part of one (a header parameter never sent). */
export interface ReadNotes {
  leftOut(operation: string, reason: string): void;
  dropped(operation: string, what: string): void;
  /** Throws when the load is past its deadline (`documentTimeout`). */
  overdue?(): void;
}

/**
 * What one operation may declare, and all of them: a list shared by many operations (a YAML alias) is read
 * once per operation, so it counts once per operation. GitHub's description: 1,223 operations, 6,000
 * parameters in all, at most 30 in one.
 */
export const MAX_OPERATION_PARAMETERS = 1_000;
export const MAX_DOCUMENT_PARAMETERS = 100_000;
const MAX_TAGS = 64;

/**
 * The operations the settings select, in document order, each checked: its path can only stay under the
 * base URL, its parameters are declared and serializable. What cannot be served (a multipart-only body, a
 * required cookie) is left out and told to `notes`, and so are header parameters that are never sent
 * (`X-Forwarded-For`, `X-HTTP-Method-Override` …); what is wrong in the document fails the bootstrap.
 */
export function readOperations(document: OpenApiDocument, settings: Pick<OpenApiSettings, 'include' | 'exclude'>, notes: ReadNotes): Operation[] {
  const operations: Operation[] = [];
  let parameters = 0;
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (typeof item !== 'object' || item === null) continue;
    const pathItem = item as Record<string, unknown>;
    for (const method of METHODS) {
      const raw = pathItem[method.toLowerCase()];
      if (typeof raw !== 'object' || raw === null) continue;
      const operation = raw as Record<string, unknown>;
      notes.overdue?.();
      const tags = Array.isArray(operation.tags) ? operation.tags.slice(0, MAX_TAGS).filter((t): t is string => typeof t === 'string') : [];
      const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      const facts = { method, path, tags, operationId };
      if (settings.include && !settings.include.some((rule) => matches(rule, facts))) continue;
      if (settings.exclude.some((rule) => matches(rule, facts))) continue;
      const pointer = pointerOf('paths', path, method.toLowerCase());
      let read: Operation | string;
      const label = operationLabel(method, path);
      try {
        checkPath(path, pointerOf('paths', path));
        noLoop(pathItem, pointerOf('paths', path));
        noLoop(operation, pointer);
        read = readOperation(pathItem, operation, facts, pointer, (what) => notes.dropped(label, what));
      } catch (error) {
        throw error instanceof DocumentProblem ? error.in(label) : error;
      }
      if (typeof read === 'string') notes.leftOut(label, read);
      else {
        parameters += read.parameters.length;
        if (parameters > MAX_DOCUMENT_PARAMETERS) {
          throw new DocumentProblem(
            `the operations served so far declare more than ${MAX_DOCUMENT_PARAMETERS} parameters in all`,
            'serve a part of the document (include: { tags: [...] })',
            pointer,
            { operation: label },
          );
        }
        operations.push(read);
      }
    }
  }
  return operations;
}

/** Whether a rule names the operation: every criterion given matches (a list when any entry does). */
export function matches(rule: OpenApiRule, operation: { method: string; path: string; tags: readonly string[]; operationId?: string }): boolean {
  if (rule.tags && !rule.tags.some((tag) => operation.tags.includes(tag))) return false;
  if (rule.methods && !rule.methods.some((m) => m.toUpperCase() === operation.method)) return false;
  if (rule.operationIds && !(operation.operationId !== undefined && rule.operationIds.includes(operation.operationId))) return false;
  if (rule.paths && !rule.paths.some((p) => (typeof p === 'string' ? glob(p).test(operation.path) : new RegExp(p.source, p.flags.replace(/[gy]/g, '')).test(operation.path)))) return false;
  return true;
}

function glob(pattern: string): RegExp {
  const source = pattern.split('**').map((part) => part.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')).join('.*');
  return new RegExp(`^${source}$`);
}

/**
 * A path of the document can only name a path under the base URL: it starts with one `/`, and has no `.` or
 * `..` segment (even percent-encoded), no backslash, query, fragment, whitespace or control character, and
 * well-formed `{name}` variables.
 */
function checkPath(path: string, pointer: string): void {
  const refuse = (why: string) =>
    new DocumentProblem(`the path '${path}' ${why}, so requests to it could leave the base URL`, `correct the path, or exclude it: exclude: { paths: [${JSON.stringify(path)}] }`, pointer);
  if (!path.startsWith('/') || path.startsWith('//')) throw refuse("does not start with a single '/'");
  if (/[\\?#\s\x00-\x1f\x7f]/.test(path)) throw refuse('holds a backslash, a query, a fragment, whitespace or a control character');
  const literal = path.replace(/\{[^{}/]*\}/g, 'x');
  if (/[{}]/.test(literal) || /\{\}/.test(path)) throw refuse('has a malformed {variable}');
  for (const segment of literal.split('/')) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      throw refuse(`has the segment '${segment}', which is not valid percent-encoding`);
    }
    if (decoded === '.' || decoded === '..') throw refuse(`has the segment '${segment}'`);
  }
}

/** An object of the document that stands in a loop of `$ref`s fails, naming the loop. */
function noLoop(value: unknown, pointer: string): void {
  const loop = typeof value === 'object' && value !== null ? refLoop(value) : undefined;
  if (loop) throw refLoopProblem(loop, pointer);
}

function readOperation(
  pathItem: Record<string, unknown>,
  operation: Record<string, unknown>,
  facts: { method: OpenApiMethod; path: string; tags: string[]; operationId?: string },
  pointer: string,
  dropped: (what: string) => void,
): Operation | string {
  const { method, path } = facts;
  const declared = new Map<string, { value: Record<string, unknown>; pointer: string }>();
  const collect = (list: unknown, at: string) => {
    if (list === undefined) return;
    if (!Array.isArray(list)) throw new DocumentProblem('parameters is not a list', 'give parameters as a list of parameter objects', at);
    if (list.length > MAX_OPERATION_PARAMETERS) throw new DocumentProblem(`it declares more than ${MAX_OPERATION_PARAMETERS} parameters`, 'exclude the operation (exclude: { operationIds: [...] })', at);
    list.forEach((value, i) => {
      const p = value as Record<string, unknown> | null;
      noLoop(p, `${at}/${i}`);
      if (typeof p !== 'object' || p === null || typeof p.name !== 'string' || typeof p.in !== 'string') {
        throw new DocumentProblem('a parameter has no name or no in', "give each parameter a name and an in ('path', 'query', 'header' or 'cookie')", `${at}/${i}`);
      }
      declared.set(`${p.in}:${p.name}`, { value: p, pointer: `${at}/${i}` }); // the operation's win over the path item's
    });
  };
  collect(pathItem.parameters, pointerOf('paths', path, 'parameters'));
  collect(operation.parameters, `${pointer}/parameters`);
  const parameters: OperationParameter[] = [];
  for (const { value, pointer: at } of declared.values()) {
    const where = value.in as string;
    if (where === 'cookie') {
      if (value.required === true) return `its required cookie parameter '${value.name}' cannot be sent (cookie parameters are not supported)`;
      continue;
    }
    if (where !== 'path' && where !== 'query' && where !== 'header') {
      throw new DocumentProblem(`the parameter '${value.name}' is in '${where}'`, "give in: 'path', 'query', 'header' or 'cookie'", at);
    }
    if (where === 'header') {
      if (!isHeaderName(value.name as string)) throw new DocumentProblem(`the header parameter '${value.name}' is not a valid header name`, 'give a header name of letters, digits and -', at);
      const reserved = reservedHeaderReason(value.name as string);
      if (reserved !== undefined) {
        // OpenAPI: Accept, Content-Type and Authorization are ignored; the others are never sent, and said so.
        if (reserved !== '') dropped(`the header parameter '${value.name}' (never sent: ${reserved})`);
        continue;
      }
    }
    parameters.push(readParameter(value, where, at));
  }
  const variables = [...path.matchAll(/\{([^{}/]+)\}/g)].map((m) => m[1]);
  for (const name of variables) {
    if (!parameters.some((p) => p.in === 'path' && p.name === name)) {
      throw new DocumentProblem(`the path variable {${name}} of ${operationLabel(method, path)} is not declared`, `declare it among the operation's parameters: { name: '${name}', in: 'path', required: true, schema: { type: 'string' } }`, pointer);
    }
  }
  const unused = parameters.find((p) => p.in === 'path' && !variables.includes(p.name));
  if (unused) throw new DocumentProblem(`the path parameter '${unused.name}' is not a variable of the path '${path}'`, `add {${unused.name}} to the path, or declare the parameter in: 'query'`, unused.pointer);
  noLoop(operation.requestBody, `${pointer}/requestBody`);
  const body = readBody(operation.requestBody, `${pointer}/requestBody`);
  if (typeof body === 'string') return body;
  const { success, accept, responseType } = readResponses(operation.responses, `${pointer}/responses`);
  return {
    method,
    path,
    ...(facts.operationId !== undefined ? { operationId: facts.operationId } : {}),
    tags: facts.tags,
    ...(typeof operation.summary === 'string' ? { summary: operation.summary } : {}),
    ...(typeof operation.description === 'string' ? { description: operation.description } : {}),
    deprecated: operation.deprecated === true,
    parameters,
    ...(body ? { body } : {}),
    ...(success ? { success } : {}),
    accept,
    ...(responseType ? { responseType } : {}),
    pointer,
  };
}

function readParameter(value: Record<string, unknown>, where: ParameterLocation, pointer: string): OperationParameter {
  const name = value.name as string;
  const style = (value.style ?? (where === 'query' ? 'form' : 'simple')) as OperationParameter['style'];
  if (!STYLES[where].includes(style)) {
    throw new DocumentProblem(`the ${where} parameter '${name}' has style '${String(style)}'`, `give one of ${STYLES[where].join(', ')} (or leave style out)`, pointer);
  }
  let schema = value.schema;
  let json = false;
  if (schema === undefined && typeof value.content === 'object' && value.content !== null) {
    const [type, media] = Object.entries(value.content as Record<string, { schema?: unknown }>)[0] ?? [];
    if (type !== undefined && !isJsonType(type)) throw new DocumentProblem(`the parameter '${name}' is declared as ${type} content`, 'declare it with a schema, or as application/json content', pointer);
    schema = media?.schema ?? {};
    json = true;
  }
  if (schema === undefined) throw new DocumentProblem(`the parameter '${name}' has neither a schema nor a content`, "give it a schema, e.g. schema: { type: 'string' }", pointer);
  return {
    name,
    in: where,
    required: where === 'path' || value.required === true,
    style,
    explode: typeof value.explode === 'boolean' ? value.explode : style === 'form',
    schema,
    json,
    ...(typeof value.description === 'string' ? { description: value.description } : {}),
    deprecated: value.deprecated === true,
    pointer,
  };
}

/** The request body, sent as JSON, a form, text or bytes (base64 in the arguments); multipart is not supported. */
function readBody(requestBody: unknown, pointer: string): OperationBody | string | undefined {
  if (typeof requestBody !== 'object' || requestBody === null) return undefined;
  const { content, required, description } = requestBody as { content?: Record<string, { schema?: unknown }>; required?: unknown; description?: unknown };
  const types = Object.keys(content ?? {});
  const odd = types.find((type) => !MEDIA_TYPE.test(type));
  if (odd !== undefined) throw new DocumentProblem(`the request body's media type ${JSON.stringify(odd)} is not a media type`, "give media types such as 'application/json'", `${pointer}/content`);
  const kinds: [BodyKind, (type: string) => boolean][] = [
    ['json', isJsonType],
    ['form', (type) => /^application\/x-www-form-urlencoded\s*(;|$)/i.test(type)],
    ['text', (type) => /^text\//i.test(type)],
    ['binary', (type) => !/^multipart\//i.test(type)],
  ];
  for (const [kind, test] of kinds) {
    const type = types.find(test);
    if (type === undefined) continue;
    return {
      contentType: type,
      kind,
      schema: content![type]?.schema ?? {},
      required: required === true,
      ...(typeof description === 'string' ? { description } : {}),
      pointer: `${pointer}/content/${type.replace(/~/g, '~0').replace(/\//g, '~1')}`,
    };
  }
  if (required === true) return `its request body is ${types.join(' or ') || 'without a media type'}, which cannot be sent (multipart bodies are not supported)`;
  return undefined;
}

function readResponses(responses: unknown, pointer: string): { success?: Operation['success']; accept: string; responseType?: string } {
  const entries = Object.entries((typeof responses === 'object' && responses !== null ? responses : {}) as Record<string, { content?: Record<string, { schema?: unknown }> }>)
    .filter(([code]) => /^2(\d\d|XX)$/i.test(code))
    .sort(([a], [b]) => a.localeCompare(b));
  const types = new Set<string>();
  let schema: unknown;
  let at: string | undefined;
  let agree = entries.length > 0;
  for (const [code, response] of entries) {
    noLoop(response, `${pointer}/${code}`);
    const content = typeof response === 'object' && response !== null ? (response.content ?? {}) : {};
    for (const type of Object.keys(content)) if (MEDIA_TYPE.test(type)) types.add(type); // a malformed one is not asked for
    const json = Object.keys(content).find(isJsonType);
    const found = json === undefined ? undefined : content[json]?.schema;
    if (found === undefined || (schema !== undefined && found !== schema)) agree = false;
    if (schema === undefined && found !== undefined) {
      schema = found;
      at = `${pointer}/${code}/content/${json!.replace(/~/g, '~0').replace(/\//g, '~1')}/schema`;
    }
  }
  const accept = types.size > 0 ? [...types, '*/*;q=0.1'].join(', ') : 'application/json, */*;q=0.1';
  const responseType = [...types][0];
  return { ...(agree && schema !== undefined ? { success: { schema, pointer: at! } } : {}), accept, ...(responseType ? { responseType } : {}) };
}
