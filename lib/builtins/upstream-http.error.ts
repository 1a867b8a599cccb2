import { ErrorCode, McpReflectError } from '../errors';
import { upstreamHttpMessage } from './builtins.messages';

/** The parts of a fetch `Response` that {@link assertUpstreamOk} reads. */
export interface UpstreamResponse {
  readonly ok: boolean;
  readonly status: number;
  readonly statusText?: string;
  readonly headers: { get(name: string): string | null };
  readonly body?: { cancel(): Promise<void> } | null;
}

/**
 * An upstream HTTP service answered with an error status. Thrown by {@link assertUpstreamOk}; the
 * {@link UpstreamErrorFilter} turns it into a text the model can act on ("try again in 30 s"). Without the
 * filter it is an unexpected error (masked for the client, logged in full).
 *
 * @example
 * throw new UpstreamHttpError(503, { service: 'weather service', retryAfter: 30 });
 */
export class UpstreamHttpError extends McpReflectError {
  /** Seconds the upstream asked to wait (its `Retry-After` header), when it said. */
  readonly retryAfter?: number;
  /** The upstream's name as it reads in a sentence ('weather service'), when given. */
  readonly service?: string;

  constructor(
    readonly status: number,
    options: { retryAfter?: number; service?: string; statusText?: string; cause?: unknown } = {},
  ) {
    super(ErrorCode.UpstreamHttpError, upstreamHttpMessage(options.service, status, options.statusText), { cause: options.cause });
    if (options.retryAfter !== undefined) this.retryAfter = options.retryAfter;
    if (options.service !== undefined) this.service = options.service;
  }
}

/**
 * Throws an {@link UpstreamHttpError} when a fetch `Response` is not ok (status outside 200–299), with the
 * wait its `Retry-After` header asks for; the unread body is released so the connection can be reused.
 *
 * @example
 * const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
 * assertUpstreamOk(response, 'weather service');
 * return response.json();
 */
export function assertUpstreamOk(response: UpstreamResponse, service?: string): void {
  if (response.ok) return;
  response.body?.cancel().catch(() => undefined);
  throw new UpstreamHttpError(response.status, {
    retryAfter: parseRetryAfter(response.headers.get('retry-after')),
    service,
    statusText: response.statusText || undefined,
  });
}

/**
 * Seconds to wait from a `Retry-After` value: delta-seconds or an HTTP date (RFC 9110 §10.2.3); undefined
 * when absent or unreadable.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}
