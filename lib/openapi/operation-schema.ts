import type { JsonSchema } from '../interfaces';
import type { Operation, OperationBody, OperationParameter } from './operations';
import type { SchemaConverter } from './schema-converter';

/** Which argument each parameter and the body is read from. */
export interface ArgumentPlan {
  /**
   * `properties`: for a query parameter whose object value spreads into names of the query (`form` exploded,
   * `deepObject`), the only properties it may send (those its schema declares).
   */
  readonly parameters: readonly { readonly key: string; readonly parameter: OperationParameter; readonly properties?: ReadonlySet<string> }[];
  readonly body?: { readonly key: string; readonly body: OperationBody };
}

export interface OperationSchemas {
  /** The tool's input schema: one property per parameter, and the body under `body`. */
  readonly input: JsonSchema;
  readonly plan: ArgumentPlan;
  /** Its output schema, `wrapped` when the answer is not an object (then it is `{ result }`). */
  readonly output?: { readonly schema: JsonSchema; readonly wrapped: boolean };
}

const PRIORITY = { path: 0, query: 1, header: 2 } as const;

/**
 * The schemas of an operation's tool. Arguments are named after the parameters (`owner`, `per_page`); a name
 * declared in two places keeps it for the path one (then query, then header) and the others take
 * `<name>__<in>`; the request body is the argument `body` (`requestBody` when a parameter is named `body`).
 */
export function operationSchemas(operation: Operation, converter: SchemaConverter, outputSchemas: boolean): OperationSchemas {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const counts = new Map<string, number>();
  for (const p of operation.parameters) counts.set(p.name, (counts.get(p.name) ?? 0) + 1);
  const ordered = [...operation.parameters].sort((a, b) => PRIORITY[a.in] - PRIORITY[b.in]);
  const parameters = ordered.map((parameter, i) => {
    const first = ordered.findIndex((p) => p.name === parameter.name) === i;
    const key = counts.get(parameter.name)! > 1 && !first ? `${parameter.name}__${parameter.in}` : parameter.name;
    converter.countText(parameter.description, parameter.pointer);
    const schema = converter.convert(parameter.schema, 'input', `${parameter.pointer}/schema`);
    properties[key] = annotated(schema, parameter.description, parameter.deprecated);
    if (parameter.required) required.push(key);
    const spreads = parameter.in === 'query' && !parameter.json && ((parameter.style === 'form' && parameter.explode) || parameter.style === 'deepObject');
    return { key, parameter, ...(spreads ? { properties: declaredProperties(schema) } : {}) };
  });
  let body: ArgumentPlan['body'];
  if (operation.body) {
    const key = ['body', 'requestBody', 'body_'].find((k) => !(k in properties))!;
    converter.countText(operation.body.description, operation.body.pointer);
    properties[key] = annotated(bodySchema(operation.body, converter), operation.body.description, false);
    if (operation.body.required) required.push(key);
    body = { key, body: operation.body };
  }
  const input: JsonSchema = { type: 'object', properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
  const plan = { parameters, ...(body ? { body } : {}) };
  if (!outputSchemas || !operation.success) return { input, plan };
  const schema = converter.convert(operation.success.schema, 'output', operation.success.pointer);
  // An output schema is an object schema (MCP): any other answer is served as { result }.
  const wrapped = schema.type !== 'object';
  return { input, plan, output: { schema: wrapped ? { type: 'object', properties: { result: schema }, required: ['result'] } : schema, wrapped } };
}

function bodySchema(body: OperationBody, converter: SchemaConverter): JsonSchema {
  switch (body.kind) {
    case 'json':
    case 'form':
      return converter.convert(body.schema, 'input', `${body.pointer}/schema`);
    case 'text':
      return { type: 'string' };
    case 'binary':
      return { type: 'string', contentEncoding: 'base64', contentMediaType: body.contentType, description: `The ${body.contentType} body, base64-encoded` };
  }
}

/**
 * The properties an object schema declares, its own and those of the schemas it combines (`allOf`, `anyOf`,
 * `oneOf`): what an exploded query object may send, each as a name of the query. Anything else would let a
 * caller add any query name, one a transform hides included.
 */
function declaredProperties(schema: JsonSchema, names = new Set<string>(), depth = 0): Set<string> {
  if (depth > 8) return names;
  if (typeof schema.properties === 'object' && schema.properties !== null) for (const name of Object.keys(schema.properties)) names.add(name);
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) for (const member of list) if (typeof member === 'object' && member !== null) declaredProperties(member as JsonSchema, names, depth + 1);
  }
  return names;
}

/** The parameter's description and deprecation on its schema (a copy: converted schemas are shared). */
function annotated(schema: JsonSchema, description: string | undefined, deprecated: boolean): JsonSchema {
  if ((description === undefined || schema.description !== undefined) && !deprecated) return schema;
  return { ...schema, ...(description !== undefined && schema.description === undefined ? { description } : {}), ...(deprecated ? { deprecated: true } : {}) };
}
