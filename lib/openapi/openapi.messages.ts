import { BootstrapError, BootstrapErrorCode } from '../errors';

/**
 * Something in a document that cannot be served, where it was found: a JSON pointer into the document
 * (`#/paths/~1repos~1{owner}/get`), what is wrong, and how to fix it. Turned into the bootstrap error by
 * {@link invalidDocument}, which names the document.
 */
export class DocumentProblem extends Error {
  constructor(
    readonly problem: string,
    readonly fix: string,
    readonly pointer?: string,
    options?: { cause?: unknown; operation?: string },
  ) {
    super(problem, options);
    this.operation = options?.operation;
  }

  /** The operation it was found in (`GET /pets`), when there is one. */
  readonly operation?: string;

  /** The same problem, found while serving `operation`. */
  in(operation: string): DocumentProblem {
    return this.operation ? this : new DocumentProblem(this.problem, this.fix, this.pointer, { cause: this.cause, operation });
  }
}

/** `#/paths/~1repos~1{owner}/get` from its segments (RFC 6901 escaping). */
export function pointerOf(...segments: readonly (string | number)[]): string {
  return `#/${segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/**
 * The bootstrap error of `McpModule.fromOpenApi()`: names the document and the namespace, where in the
 * document (the operation, its pointer), the cause and the fix.
 */
export function invalidDocument(document: string, namespace: string, problem: DocumentProblem): BootstrapError {
  const where = problem.pointer || problem.operation ? `at ${[problem.pointer, problem.operation && `(${problem.operation})`].filter(Boolean).join(' ')}, ` : '';
  return new BootstrapError(
    BootstrapErrorCode.InvalidOpenApiDocument,
    `Cannot serve the OpenAPI document ${document} (McpModule.fromOpenApi({ namespace: '${namespace}' })): ${where}${problem.problem}.\nFix: ${problem.fix}.`,
    problem.cause !== undefined ? { cause: problem.cause } : undefined,
  );
}

/** An operation in messages: `GET /repos/{owner}/{repo}`. */
export function operationLabel(method: string, path: string): string {
  return `${method} ${path}`;
}

/** How a call's failure reads for the model: what was asked, what happened, what to do. */
export const callMessages = {
  status: (request: string, status: number, statusText: string, excerpt: string, hint: string) =>
    `${request} answered HTTP ${status}${statusText ? ` ${statusText}` : ''}${hint ? `: ${hint}` : ''}${excerpt ? `\n${excerpt}` : ''}`,
  hints: {
    400: 'the API rejected the arguments; check them against the tool\'s input schema before trying again',
    401: 'the API refused the credentials this server sends; retrying will not help, the server\'s operator must fix its configuration',
    403: 'the API does not allow this to the credentials this server sends (or it is rate limiting)',
    404: 'there is nothing at that address; check the path arguments (a name or an identifier may be wrong)',
    409: 'the request conflicts with the current state of the resource; read it again before changing it',
    422: 'the API rejected the arguments; check them before trying again',
    429: 'the API is rate limiting requests; try again later',
    server: 'the fault is on the API\'s side, not in the arguments; try again later',
  } as Record<number | 'server', string>,
  retryAfter: (seconds: number) => `try again in ${seconds} s`,
  redirect: (request: string, status: number) =>
    `${request} answered with a redirect (HTTP ${status}), which is not followed: a request never leaves the API's base URL`,
  timeout: (request: string, ms: number) => `${request} did not answer within ${ms} ms: try again in a moment, or ask for less data at once`,
  tooLarge: (request: string, bytes: number) => `${request} answered with more than ${bytes} bytes (maxResponseBytes): ask for less data at once (a smaller page, a filter)`,
  unreachable: (request: string, code: string) => `${request}: the API could not be reached (${code}); it may be down, try again later`,
  notJson: (request: string, type: string) => `${request} answered ${type || 'without a Content-Type'}, not the JSON its document declares`,
  badJson: (request: string) => `${request} answered with a body that is not valid JSON`,
  noBody: (request: string, status: number) => `${request} answered HTTP ${status} without the JSON body its document declares`,
  argument: (tool: string, key: string, why: string) => `Invalid arguments for tool ${tool}: ${key}: ${why}`,
  header: (tool: string, name: string, why: string) => `Cannot call tool ${tool}: the header '${name}' ${why}`,
  offBase: (tool: string) => `Cannot call tool ${tool}: the request would leave the API's base URL, so it is not sent`,
};
