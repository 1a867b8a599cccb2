import { Catch } from '../decorators';
import { McpReflectError, ToolError } from '../errors';
import type { ArgumentsHost, ExceptionFilter } from '../interfaces';
import { formatWait, upstreamMessages as say } from './builtins.messages';
import { UpstreamHttpError } from './upstream-http.error';

/** Options of {@link UpstreamErrorFilter}. */
export interface UpstreamErrorFilterOptions {
  /**
   * The upstream's name as it reads in a sentence: 'weather service', 'GitHub API' (default 'upstream
   * service'). An `UpstreamHttpError` that names its own service wins.
   */
  service?: string;
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);
const REFUSED_CODES = new Set(['ECONNREFUSED']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);
const UNREACHABLE_CODES = new Set(['EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);
/** How deep the cause chain is searched (`TypeError('fetch failed')` → its cause → …). */
const MAX_DEPTH = 5;

/**
 * Turns failures of an upstream service into texts the model can act on: timeouts (`AbortSignal.timeout`,
 * undici's connect / headers / body timeouts), connection failures (ECONNREFUSED, ENOTFOUND, ECONNRESET,
 * EAI_AGAIN, also inside `TypeError('fetch failed')`), and HTTP errors thrown by {@link assertUpstreamOk}.
 * Anything else is rethrown untouched (unexpected errors stay masked), and so are the library's own errors.
 *
 * @example
 * @UseFilters(new UpstreamErrorFilter({ service: 'weather service' }))
 * @Tool() async forecast(@Param() city: string) {
 *   const response = await fetch(`https://api.example.com/forecast?city=${encodeURIComponent(city)}`, { signal: AbortSignal.timeout(5_000) });
 *   assertUpstreamOk(response);
 *   return response.json();
 * }
 * // 429 with Retry-After: 30 → "The weather service is rate limiting requests (HTTP 429): try again in 30 s."
 */
export class UpstreamErrorFilter implements ExceptionFilter {
  private readonly service: string;

  constructor(options: UpstreamErrorFilterOptions = {}) {
    this.service = options.service ?? 'upstream service';
  }

  catch(exception: unknown, _host: ArgumentsHost): never {
    // The library's own errors (ToolError, invalid arguments, …) already have their answer.
    if (exception instanceof McpReflectError && !(exception instanceof UpstreamHttpError)) throw exception;
    const text = this.describe(exception, 0);
    if (text === undefined) throw exception;
    throw new ToolError(text, { cause: exception });
  }

  /** The text for `error`, searching its cause chain (and an AggregateError's errors); undefined if unknown. */
  private describe(error: unknown, depth: number): string | undefined {
    if (depth > MAX_DEPTH || typeof error !== 'object' || error === null) return undefined;
    if (error instanceof UpstreamHttpError) return this.http(error);
    const { name, code } = error as { name?: unknown; code?: unknown };
    if (name === 'TimeoutError' || (typeof code === 'string' && TIMEOUT_CODES.has(code))) return say.timeout(this.service);
    if (typeof code === 'string') {
      if (REFUSED_CODES.has(code)) return say.refused(this.service, code);
      if (code === 'ENOTFOUND') return say.notResolved(this.service);
      if (code === 'EAI_AGAIN') return say.dnsAgain(this.service);
      if (RESET_CODES.has(code)) return say.reset(this.service, code);
      if (UNREACHABLE_CODES.has(code)) return say.unreachable(this.service, code);
    }
    const nested = (error as { errors?: unknown }).errors;
    if (Array.isArray(nested)) {
      for (const inner of nested.slice(0, 10)) {
        const text = this.describe(inner, depth + 1);
        if (text !== undefined) return text;
      }
    }
    const cause = this.describe((error as { cause?: unknown }).cause, depth + 1);
    if (cause !== undefined) return cause;
    // Checked last: an abort whose reason was a timeout is reported as the timeout above.
    return name === 'AbortError' ? say.aborted(this.service) : undefined;
  }

  private http(error: UpstreamHttpError): string {
    const service = error.service ?? this.service;
    const { status } = error;
    const wait = error.retryAfter !== undefined ? formatWait(error.retryAfter) : 'a minute';
    if (status === 429) return say.rateLimited(service, wait);
    if (status === 503) return say.unavailable(service, wait);
    if (status === 504 || status === 408) return say.gatewayTimeout(service, status, wait);
    if (status >= 500) return say.serverError(service, status, wait);
    if (status === 401 || status === 403) return say.credentials(service, status);
    if (status === 404) return say.notFound(service);
    return say.rejected(service, status);
  }
}

// Written as a call, not `@Catch()`: a decorator would make TypeScript record the constructor's parameter
// types, and the container would then try to inject the options object when the class is given by itself.
Catch()(UpstreamErrorFilter);
