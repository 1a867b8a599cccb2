import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, ResourceNotFoundError, specTypeSchemas, type SpecTypeName } from '@modelcontextprotocol/server';
import { RequestError, RpcCode } from '../errors';

/** Errors thrown by user code that must reach the client as JSON-RPC errors, not `isError` results. */
export function isProtocolError(error: unknown): boolean {
  return error instanceof ProtocolError;
}

/**
 * The one place where the library's request errors become wire errors. "Resource not found" is -32602 with
 * `data: { uri }`: the 2026-07-28 spec requires it, and SDK v2 sends the same on 2025-era connections (its
 * codec maps -32002 to -32602; clients accept both, spec 2025-11-25 server/resources#error-handling).
 */
export function toWireError(error: unknown): unknown {
  if (!(error instanceof RequestError)) return error;
  if (error.rpcCode === RpcCode.ResourceNotFound) return new ResourceNotFoundError(String(error.data?.uri ?? ''), error.message);
  if (error.rpcCode === RpcCode.MissingRequiredClientCapability) {
    return new MissingRequiredClientCapabilityError({ requiredCapabilities: (error.data?.requiredCapabilities ?? {}) as never }, error.message);
  }
  return new ProtocolError(error.rpcCode, error.message, error.data);
}

// The spec schema of each request whose params the library answers for: its own methods, and logging/setLevel,
// which the SDK answers itself when the logging capability is declared.
const REQUEST_SCHEMAS: Readonly<Record<string, SpecTypeName>> = {
  'tools/list': 'ListToolsRequest',
  'tools/call': 'CallToolRequest',
  'resources/list': 'ListResourcesRequest',
  'resources/templates/list': 'ListResourceTemplatesRequest',
  'resources/read': 'ReadResourceRequest',
  'resources/subscribe': 'SubscribeRequest',
  'resources/unsubscribe': 'UnsubscribeRequest',
  'prompts/list': 'ListPromptsRequest',
  'prompts/get': 'GetPromptRequest',
  'completion/complete': 'CompleteRequest',
  'logging/setLevel': 'SetLevelRequest',
};

/**
 * Wraps the SDK's handler of `method` so that params its schema refused (the SDK answers -32603 with the
 * schema library's issue dump; tools/call -32602 with the same dump) answer -32602
 * `Invalid params for <method>: <path>: <problem>; ...`. Other errors pass unchanged; only a failed request
 * pays for the second parse, against the SDK's public `specTypeSchemas`.
 *
 * The SDK has no error class or code of its own for "the params failed the schema" (SDK 2.4.0: a plain `Error`
 * from `Protocol.setRequestHandler`, a `ProtocolError` -32602 from `Server._wrapHandler` for tools/call), so the
 * error is not read by its text: every error that can be one (not a `ProtocolError`, or a -32602 one) has the
 * params checked again, and valid params leave it as it was. spec/server/sdk-contract.spec.ts pins the shapes.
 */
export function withReadableParams<R extends { method: string; params?: unknown }, C, T>(
  method: string,
  handler: (request: R, ctx: C) => Promise<T>,
): (request: R, ctx: C) => Promise<T> {
  if (!Object.hasOwn(REQUEST_SCHEMAS, method)) return handler;
  return (request, ctx) =>
    handler(request, ctx).catch((error: unknown) => {
      throw toParamsError(request, error);
    });
}

function toParamsError(request: { method: string; params?: unknown }, error: unknown): unknown {
  const { method } = request;
  // A protocol error with another code (an internal error, a refused capability) is never a params error. A -32602
  // of our own (an unknown tool, a resource not found) comes from a handler that got valid params: checked again,
  // they pass, and it stays as it was.
  if (error instanceof ProtocolError && error.code !== ProtocolErrorCode.InvalidParams) return error;
  // Missing params are read as `{}`: the message then names the missing fields (`uri: is required`).
  const input = { method, params: request.params ?? {} };
  const outcome = specTypeSchemas[REQUEST_SCHEMAS[method]]['~standard'].validate(input);
  if (!outcome.issues || outcome.issues.length === 0) return error;
  const lines = [...new Set(describeIssues(outcome.issues as readonly SchemaIssue[], [], input))];
  return new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid params for ${method}: ${lines.join('; ')}`);
}

/** A Standard Schema issue, with the fields the SDK's schemas (zod) add when they have them. */
interface SchemaIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
  readonly code?: string;
  readonly expected?: string;
  readonly values?: readonly unknown[];
  readonly keys?: readonly string[];
  readonly errors?: readonly (readonly SchemaIssue[])[];
}

const ARTICLE: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  record: 'an object',
  array: 'an array',
};

/**
 * One `path: problem` line per issue; `at` is the path of the union the issues belong to, if any, and `input`
 * what was checked (a field is missing when nothing is at its path, whatever the schema library's wording).
 */
function describeIssues(issues: readonly SchemaIssue[], at: readonly PropertyKey[], input: unknown): string[] {
  return issues.flatMap((issue) => {
    const path = [...at, ...(issue.path ?? []).map((segment) => (typeof segment === 'object' ? segment.key : segment))];
    const line = (problem: string) => `${toPath(path)}: ${problem}`;
    switch (issue.code) {
      case 'invalid_type':
        return [line(valueAt(input, path) === undefined ? 'is required' : `must be ${ARTICLE[issue.expected ?? ''] ?? issue.expected}`)];
      case 'invalid_value':
        return [line(oneOf(issue.values ?? []))];
      case 'unrecognized_keys':
        return (issue.keys ?? []).map((key) => `${toPath([...path, key])}: is not an accepted parameter`);
      case 'invalid_union':
        return describeUnion(issue.errors ?? [], path, input);
      default:
        // Wording only (no decision rests on it): zod's `Invalid input: ` lead is dropped, as the line names the path.
        return [line(issue.message.replace(/^Invalid input: /, '').replace(/^[A-Z]/, (c) => c.toLowerCase()))];
    }
  });
}

/**
 * A union (`ref` of completion/complete): the alternative whose literal fields matched says what it lacks;
 * when every alternative failed on the same literal field (`ref.type`), that field's accepted values.
 */
function describeUnion(branches: readonly (readonly SchemaIssue[])[], at: readonly PropertyKey[], input: unknown): string[] {
  const literal = (issue: SchemaIssue) => issue.code === 'invalid_value';
  const matched = branches.filter((branch) => !branch.some(literal));
  if (matched.length === 1) return describeIssues(matched[0], at, input);
  const literals = branches.map((branch) => branch.find(literal));
  const paths = new Set(literals.map((issue) => JSON.stringify(issue?.path ?? null)));
  if (matched.length === 0 && paths.size === 1) {
    const first = literals[0]!;
    return describeIssues([{ ...first, values: literals.flatMap((issue) => issue?.values ?? []) }], at, input);
  }
  return [`${toPath(at)}: does not match any accepted form`];
}

/** What `input` holds at `path` (undefined where any step is missing). */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

function oneOf(values: readonly unknown[]): string {
  const listed = values.map((value) => JSON.stringify(value));
  return listed.length === 1 ? `must be ${listed[0]}` : `must be one of: ${listed.join(', ')}`;
}

/** `['params', 'ref', 'type']` → `ref.type`, `['params', 'items', 0]` → `items[0]`; the params themselves → `params`. */
function toPath(path: readonly PropertyKey[]): string {
  const inParams = path[0] === 'params' ? path.slice(1) : path;
  const text = inParams.reduce<string>((acc, segment) => (typeof segment === 'number' ? `${acc}[${segment}]` : acc ? `${acc}.${String(segment)}` : String(segment)), '');
  return text || 'params';
}
