import type { Context } from '../context';
import { ToolError } from '../errors';
import type { ProvidedComponents, ProvidedResource, ProvidedTemplate, ProvidedTool, ToolAnnotations } from '../interfaces';
import type { ApiClient } from './api-client';
import { resourceValue, toolResult } from './api-results';
import { callMessages, DocumentProblem, operationLabel } from './openapi.messages';
import type { OpenApiOperationInfo } from './openapi.options';
import type { OpenApiSettings } from './openapi-options.check';
import { operationSchemas } from './operation-schema';
import { matches, type Operation } from './operations';
import { compileRequest, type BuiltRequest, type Refusal } from './request-builder';
import { SchemaConverter } from './schema-converter';

/** The scheme of the API's resource URIs: `openapi://<namespace>/<path>` once served. */
const SCHEME = 'openapi';
/** A template variable is an RFC 6570 varname: a path parameter named otherwise stays a tool. */
const VARNAME = /^[A-Za-z0-9_]+$/;

/** What was built: the components to serve, and how many of each kind. */
export interface OpenApiComponents {
  readonly components: ProvidedComponents;
  readonly tools: number;
  readonly resources: number;
  readonly templates: number;
}

/**
 * The operations as a provider's components (docs/composition.md#providers), so that they run through the
 * application's one pipeline like a hand-written class's (middleware, guards, scopes, interceptors, filters,
 * validation against the advertised input schema): each operation a tool whose input schema is built from its
 * parameters and body and whose output schema is its 2xx answer's, or — by the `resources` rule — a GET as a
 * resource or a resource template. Every request is compiled here, once.
 */
export function openApiComponents(
  operations: readonly Operation[],
  settings: OpenApiSettings,
  client: ApiClient,
  load: { readonly deadline: number; readonly dropped?: (operation: string, what: string) => void },
): OpenApiComponents {
  let current = '';
  const converter = new SchemaConverter({
    maxDepth: settings.maxSchemaDepth,
    deadline: load.deadline,
    documentTimeout: settings.documentTimeout,
    dropped: (part) => load.dropped?.(current, `${part.what} at ${part.pointer}`),
  });
  const names = new Set<string>();
  const tools: ProvidedTool[] = [];
  const resources: ProvidedResource[] = [];
  const templates: ProvidedTemplate[] = [];
  for (const operation of operations) {
    const label = operationLabel(operation.method, operation.path);
    current = label;
    const name = uniqueName(operation, settings.namespace, names);
    let schemas;
    try {
      // What the operation's tool shows besides its schemas counts against the document's bound on text too.
      converter.countText(operation.summary, operation.pointer);
      converter.countText(operation.description, operation.pointer);
      schemas = operationSchemas(operation, converter, settings.outputSchemas);
    } catch (error) {
      throw error instanceof DocumentProblem ? error.in(label) : error;
    }
    const served = `${settings.namespace}_${name}`;
    const build = compileRequest(operation, schemas.plan, settings);
    const request = (args: Record<string, unknown>): BuiltRequest => {
      const made = build(args);
      if (isRefusal(made)) throw new ToolError(made.key ? callMessages.argument(served, made.key, made.why) : callMessages.offBase(served));
      return made;
    };
    const info: OpenApiOperationInfo = { method: operation.method, path: operation.path, ...(operation.operationId ? { operationId: operation.operationId } : {}), tags: operation.tags, name };
    const scopes = typeof settings.scopes === 'function' ? settings.scopes(info) : settings.scopes;
    const scoped = scopes && scopes.length > 0 ? { scopes } : {};
    const description = describe(operation);
    const common = { ...(operation.summary ? { title: operation.summary } : {}), ...(description ? { description } : {}), ...(operation.tags.length > 0 ? { tags: [...operation.tags] } : {}), ...scoped };

    const variables = operation.parameters.filter((p) => p.in === 'path').map((p) => p.name);
    if (settings.resources && asResource(operation, settings)) {
      const uri = `${SCHEME}://${operation.path.slice(1)}`;
      const options = { name, ...common, ...(operation.responseType ? { mimeType: operation.responseType } : {}) };
      if (variables.length === 0) {
        resources.push({ uri, ...options, read: async (ctx: Context) => resourceValue(await client.send(request({}), ctx, served)) });
      } else {
        templates.push({ uriTemplate: uri, ...options, read: async (values: Record<string, string>, ctx: Context) => resourceValue(await client.send(request(values), ctx, served)) });
      }
      continue;
    }

    const shape = schemas.output ? { output: { wrapped: schemas.output.wrapped } } : {};
    tools.push({
      name,
      ...common,
      annotations: annotations(operation),
      inputSchema: schemas.input,
      ...(schemas.output ? { outputSchema: schemas.output.schema } : {}),
      call: async (args: Record<string, unknown>, ctx: Context) => toolResult(await client.send(request(args ?? {}), ctx, served), shape),
    });
  }
  return { components: { tools, resources, templates }, tools: tools.length, resources: resources.length, templates: templates.length };
}

/** A GET the `resources` rule names, whose only required inputs are path parameters named as template variables can be. */
function asResource(operation: Operation, settings: OpenApiSettings): boolean {
  if (operation.method !== 'GET' || !settings.resources!.some((rule) => matches(rule, operation))) return false;
  if (operation.body?.required) return false;
  return operation.parameters.every((p) => (p.in === 'path' ? VARNAME.test(p.name) : !p.required));
}

/**
 * The name of an operation's tool (or resource): its `operationId` (else `<method>_<path>`) with what a tool name
 * cannot hold as `_`, short enough for `<namespace>_<name>` to stay within 128 characters (a long one keeps a
 * hash of the whole), and unique (`_2`, `_3` … after a clash).
 */
function uniqueName(operation: Operation, namespace: string, taken: Set<string>): string {
  const source = operation.operationId ?? `${operation.method.toLowerCase()}_${operation.path}`;
  let name = source.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/_+/g, '_').replace(/^_+|_+$/g, '') || operation.method.toLowerCase();
  const room = 128 - namespace.length - 1;
  if (name.length > room) name = `${name.slice(0, room - 9)}_${hash(source)}`;
  let unique = name;
  for (let i = 2; taken.has(unique); i++) unique = `${name.slice(0, room - String(i).length - 1)}_${i}`;
  taken.add(unique);
  return unique;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short stable tag for a long name. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

function describe(operation: Operation): string | undefined {
  const text = [operation.summary, operation.description].filter((s): s is string => !!s && s.trim() !== '');
  if (text.length === 2 && text[1].startsWith(text[0])) text.shift();
  const joined = text.join('\n\n');
  return operation.deprecated ? `Deprecated.${joined ? ` ${joined}` : ''}` : joined || undefined;
}

/** What the method says of the call (hints a client may show; never trusted). */
function annotations(operation: Operation): ToolAnnotations {
  const { method } = operation;
  const reading = method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
  return {
    readOnlyHint: reading,
    ...(reading ? {} : { destructiveHint: method === 'DELETE' || method === 'PUT' }),
    idempotentHint: reading || method === 'PUT' || method === 'DELETE',
    openWorldHint: true,
  };
}

function isRefusal(made: BuiltRequest | Refusal): made is Refusal {
  return 'why' in made;
}
