import type { Context } from '../context';
import { ToolError } from '../errors';
import { readBounded } from './bounded-read';
import { headerValueProblem, isHeaderName } from './headers';
import { callMessages } from './openapi.messages';
import type { OpenApiSettings } from './openapi-options.check';
import type { BuiltRequest } from './request-builder';

/** What an API answered with a success status: its body, read within `maxResponseBytes`. */
export interface ApiAnswer {
  readonly status: number;
  /** The media type, lower case, without parameters (`application/json`); `''` when none was sent. */
  readonly type: string;
  readonly bytes: Uint8Array;
  readonly url: URL;
  readonly label: string;
}

export interface Logger {
  error(message: string, error?: unknown): void;
  warn?(message: string): void;
}

const EXCERPT = 500; // characters of an error answer shown to the model

/**
 * Sends the requests of one API: the server's own headers are added per call (`forwardHeaders`, `headers`,
 * `upstreamToken`; never the caller's MCP access token), each request is bounded by `timeout` and by the
 * caller's cancellation, redirects are not followed (a request never leaves the base URL), the answer is read
 * within `maxResponseBytes`, and every failure becomes a `ToolError` the model can act on.
 */
export class ApiClient {
  constructor(
    private readonly settings: OpenApiSettings,
    private readonly logger: Logger,
  ) {}

  async send(request: BuiltRequest, ctx: Context, tool: string): Promise<ApiAnswer> {
    const headers = await this.headers(request, ctx, tool);
    const timeout = AbortSignal.timeout(this.settings.timeout);
    const signal = AbortSignal.any([ctx.signal, timeout]);
    const { label } = request;
    let response: Response;
    try {
      response = await fetch(request.url, {
        method: request.method,
        headers: [...headers],
        ...(request.body !== undefined ? { body: request.body } : {}),
        redirect: 'manual',
        signal,
      });
    } catch (error) {
      throw this.failure(error, ctx, timeout, label);
    }
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel().catch(() => undefined);
      throw new ToolError(callMessages.redirect(label, response.status));
    }
    let bytes: Uint8Array | undefined;
    try {
      bytes = await readBounded(response, this.settings.maxResponseBytes);
    } catch (error) {
      throw this.failure(error, ctx, timeout, label);
    }
    if (!bytes) throw new ToolError(callMessages.tooLarge(label, this.settings.maxResponseBytes));
    const type = (response.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
    if (!response.ok) throw new ToolError(statusMessage(response, type, bytes, label));
    return { status: response.status, type, bytes, url: request.url, label };
  }

  /**
   * The request's headers (its `accept`, header parameters and `content-type`), then the caller's forwarded
   * ones, the server's `headers` (they win), and `Authorization` from `upstreamToken`. Any value that carries
   * the caller's MCP access token is refused: that token is for this server alone.
   */
  private async headers(request: BuiltRequest, ctx: Context, tool: string): Promise<Map<string, string>> {
    const { forwardHeaders, headers: extra, upstreamToken } = this.settings;
    const out = new Map(request.headers);
    for (const name of forwardHeaders) {
      const value = ctx.headers?.[name];
      if (value !== undefined && headerValueProblem(value) === undefined) out.set(name, value);
    }
    const computed = typeof extra === 'function' ? await extra(ctx) : extra;
    for (const [name, value] of Object.entries(computed ?? {})) {
      const problem = !isHeaderName(name) ? 'is not a header name' : typeof value !== 'string' ? 'has a value that is not a string' : headerValueProblem(value);
      if (problem) throw this.serverMistake(tool, name, `given by the headers option ${problem}`);
      out.set(name.toLowerCase(), value);
    }
    if (upstreamToken) {
      const token = await upstreamToken(ctx);
      if (token !== undefined && token !== '') {
        const problem = typeof token !== 'string' ? 'is not a string' : headerValueProblem(token);
        if (problem) throw this.serverMistake(tool, 'authorization', `from upstreamToken ${problem}`);
        out.set('authorization', `Bearer ${token}`);
      }
    }
    const content = request.headers.get('content-type');
    if (content !== undefined) out.set('content-type', content);
    const mcpToken = ctx.auth?.token;
    if (mcpToken) {
      for (const [name, value] of out) {
        if (value.includes(mcpToken)) throw this.serverMistake(tool, name, "would carry the caller's MCP access token to the API, which is never forwarded");
      }
    }
    return out;
  }

  /** A mistake of the server's configuration: the caller is told the call cannot be made, the log says why. */
  private serverMistake(tool: string, name: string, why: string): ToolError {
    const message = callMessages.header(tool, name, why);
    this.logger.error(`${message} (McpModule.fromOpenApi({ namespace: '${this.settings.namespace}' }))`);
    return new ToolError(message);
  }

  private failure(error: unknown, ctx: Context, timeout: AbortSignal, label: string): unknown {
    if (ctx.signal.aborted) return error; // the caller cancelled: nothing to tell it
    if (timeout.aborted) return new ToolError(callMessages.timeout(label, this.settings.timeout));
    const code = errorCode(error);
    this.logger.warn?.(`OpenAPI '${this.settings.namespace}': ${label} to ${this.settings.baseUrl.origin} failed: ${code}`);
    return new ToolError(callMessages.unreachable(label, code));
  }
}

/** A failed answer for the model: the request, the status, a hint, and the start of what the API said. */
function statusMessage(response: Response, type: string, bytes: Uint8Array, label: string): string {
  const { status } = response;
  let hint = callMessages.hints[status] ?? (status >= 500 ? callMessages.hints.server : '');
  const retry = response.headers.get('retry-after');
  if (retry && /^\d+$/.test(retry.trim()) && (status === 429 || status === 503)) hint = `${hint ? `${hint}; ` : ''}${callMessages.retryAfter(Number(retry.trim()))}`;
  let excerpt = '';
  if (bytes.byteLength > 0) {
    const readable = type === '' || /^text\/|json|xml|x-www-form-urlencoded/.test(type);
    if (readable) {
      const text = new TextDecoder().decode(bytes.subarray(0, EXCERPT * 4)).replace(/[\x00-\x08\x0b-\x1f\x7f]+/g, ' ').trim();
      excerpt = text.length > EXCERPT ? `${text.slice(0, EXCERPT)}…` : text;
    } else {
      excerpt = `(${bytes.byteLength} bytes of ${type})`;
    }
  }
  return callMessages.status(label, status, response.statusText, excerpt, hint);
}

function errorCode(error: unknown): string {
  let current = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; current && depth < 5; depth++, current = current.cause as typeof current) {
    if (typeof current.code === 'string') return current.code;
  }
  return error instanceof Error ? error.name : 'network error';
}
