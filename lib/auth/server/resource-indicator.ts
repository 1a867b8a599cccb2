import { IncomingMessage } from 'node:http';
import { sameResource } from '../../context';

/** oidc-provider's own bound on a request body. */
const MAX_FORM_BYTES = 56 * 1024;

/** What a token request is answered without reaching oidc-provider. */
export interface TokenRefusal {
  readonly status: number;
  readonly error: string;
  readonly description: string;
}

/**
 * RFC 8707's `resource` of an authorization request in the one form this server issues tokens for: `<mcp>/` and
 * `<mcp>` name the same endpoint, and the grant must hold the form later requests are compared with.
 */
export function canonicalAuthorization(target: string, issuer: string, resource: string): string {
  const url = new URL(target, issuer);
  const given = url.searchParams.getAll('resource');
  if (given.length === 0 || !given.every((value) => value !== resource && sameResource(value, resource))) return target;
  url.searchParams.delete('resource');
  url.searchParams.set('resource', resource);
  return `${url.pathname}${url.search}`;
}

/**
 * A token request whose `resource` is checked before oidc-provider sees it — it consumes the code or the refresh
 * token before it checks the resource, so that a refused request cost the client its sign-in (issue 38, item 5) —
 * and written in its canonical form. Answers the request to pass on (a new IncomingMessage on the same socket,
 * carrying the body read here), or the refusal.
 */
export async function checkedTokenRequest(
  req: IncomingMessage,
  resource: string,
  narrow?: (form: URLSearchParams, authorization: string | undefined) => Promise<boolean>,
): Promise<IncomingMessage | TokenRefusal> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_FORM_BYTES) return { status: 413, error: 'invalid_request', description: 'the request body is too large' };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return { status: 413, error: 'invalid_request', description: 'the request body is too large' };
    chunks.push(chunk);
  }
  let body = Buffer.concat(chunks);
  if (/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
    const form = new URLSearchParams(body.toString('utf8'));
    const given = form.getAll('resource');
    if (given.some((value) => !sameResource(value, resource))) {
      return { status: 400, error: 'invalid_target', description: `this authorization server issues tokens for ${resource} only` };
    }
    let changed = false;
    if (given.length > 0 && given.some((value) => value !== resource)) {
      form.delete('resource');
      form.set('resource', resource);
      changed = true;
    }
    if (narrow && (await narrow(form, req.headers.authorization))) changed = true;
    if (changed) body = Buffer.from(form.toString(), 'utf8');
  }
  // The same request, its body read: a message of its own on the same socket, as oidc-provider reads a body.
  const replay = new IncomingMessage(req.socket);
  replay.method = req.method;
  replay.url = req.url;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  replay.headers = { ...req.headers, 'content-length': String(body.length) };
  delete replay.headers['transfer-encoding'];
  replay.push(body);
  replay.push(null);
  // Whole: when it is destroyed after its end, the connection is kept (an incomplete message would end it).
  replay.complete = true;
  return replay;
}
