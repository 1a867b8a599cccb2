/**
 * Stable codes of the errors mcp-reflect raises while it runs (bootstrap errors have `BootstrapErrorCode`).
 * Every `McpReflectError` carries one as `code`. Documented in docs/errors.md.
 */
export const ErrorCode = {
  /** A tool's failure the model should read (`ToolError`). */
  ToolError: 'TOOL_ERROR',
  /** A request answered with a JSON-RPC error (`RequestError`). */
  RequestError: 'REQUEST_ERROR',
  InvalidArguments: 'INVALID_ARGUMENTS',
  Timeout: 'TIMEOUT',
  RateLimited: 'RATE_LIMITED',
  /** The client's answer to an elicitation or sampling request is unusable (`InvalidAnswerError`). */
  InvalidAnswer: 'INVALID_ANSWER',
  InvalidElicitationForm: 'INVALID_ELICITATION_FORM',
  /** `ctx.state` has no owner to keep state for, or is used where no call is served (`StateError`). */
  StateUnavailable: 'STATE_UNAVAILABLE',
  /** `ctx.state.set()` would pass the caller's (or the store's) byte budget (`StateError`). */
  StateLimit: 'STATE_LIMIT',
  UpstreamHttpError: 'UPSTREAM_HTTP_ERROR',
  InvalidToken: 'INVALID_TOKEN',
  InsufficientScope: 'INSUFFICIENT_SCOPE',
  AuthUnavailable: 'AUTH_UNAVAILABLE',
  /** `app.tools.enable('x')` (…) names no such component. */
  UnknownComponent: 'UNKNOWN_COMPONENT',
  ProviderNotFound: 'PROVIDER_NOT_FOUND',
  /** `moduleRef.get()` of a request-scoped or transient provider. */
  ScopedProvider: 'SCOPED_PROVIDER',
  /** A request-scoped provider resolved outside a call. */
  OutsideRequest: 'OUTSIDE_REQUEST',
  OptionalDependencyMissing: 'OPTIONAL_DEPENDENCY_MISSING',
  /** A middleware called `next()` twice. */
  MiddlewareNextTwice: 'MIDDLEWARE_NEXT_TWICE',
  /** `listen()`, `connect()` … on a closed application. */
  ApplicationClosed: 'APPLICATION_CLOSED',
  /** `getUrl()` before `listen({ transport: 'http' })`. */
  NotListening: 'NOT_LISTENING',
  UnknownTransport: 'UNKNOWN_TRANSPORT',
  /** `app.listen({ transport: 'http' })` could not bind its host and port (the port in use, an address not of this machine). */
  ListenFailed: 'LISTEN_FAILED',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];
