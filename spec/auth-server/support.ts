import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
export { startUpstream, type Upstream } from './upstream';
export { AppClientProvider } from './client-provider';
import { Ctx, CurrentAuth, McpModule, Module, Tool, Injectable, type Context, type McpAuth } from 'mcp-reflect';

/** A cookie jar by origin, as a browser keeps it (every cookie here is host-only). */
type Jar = Map<string, Map<string, string>>;

export interface BrowseOptions {
  /** The login typed at the upstream login page. Default alice. */
  login?: string;
  /** What to press on this server's consent page. Default allow. */
  decision?: 'allow' | 'deny';
  /** The same browser again (its cookies). */
  jar?: Jar;
  /** Called with every page shown (its URL, status and HTML). */
  onPage?: (url: URL, status: number, html: string) => void;
}

/**
 * A scripted browser: follows redirects by hand (cookies kept by origin), submits each page's form — the
 * upstream's login and consent, this server's consent (pressing `decision`) — and stops at the redirect to
 * `redirectPrefix`, which it returns. An error page's "Return to the application" link is followed.
 */
export async function browse(start: URL | string, redirectPrefix: string, options: BrowseOptions = {}): Promise<{ url: URL; jar: Jar; pages: string[] }> {
  const jar: Jar = options.jar ?? new Map();
  const pages: string[] = [];
  let url = new URL(start);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 30; step++) {
    if (url.href.startsWith(redirectPrefix)) return { url, jar, pages };
    const cookies = jar.get(url.origin) ?? new Map<string, string>();
    const cookie = [...cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: form } : {}),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      const eq = pair.indexOf('=');
      const expired = /max-age=0|expires=Thu, 01 Jan 1970/i.test(header);
      if (expired) cookies.delete(pair.slice(0, eq));
      else cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
    }
    jar.set(url.origin, cookies);
    const location = response.headers.get('location');
    form = undefined;
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    pages.push(html);
    options.onPage?.(url, response.status, html);
    const back = /<a[^>]*id="continue"[^>]*href="([^"]*)"/.exec(html)?.[1];
    if (back) {
      url = new URL(back.replace(/&amp;/g, '&'), url);
      continue;
    }
    const action = /<form[^>]*\saction="([^"]*)"/.exec(html)?.[1];
    if (!action) throw new Error(`browse: ${url.href} answered ${response.status} with no form: ${html.slice(0, 600)}`);
    form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]*)"[^>]*value="([^"]*)"/g)) form.set(name, value.replace(/&amp;/g, '&'));
    if (form.get('prompt') === 'login') {
      form.set('login', options.login ?? 'alice');
      form.set('password', 'any');
    }
    if (html.includes('name="decision"')) form.set('decision', options.decision ?? 'allow');
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error(`browse: no redirect to ${redirectPrefix} after 30 steps`);
}

@Injectable()
class ProfileTools {
  @Tool({ description: 'Who signed in, as the access token says.' })
  whoami(@CurrentAuth() auth: McpAuth | undefined) {
    const claims = auth?.claims ?? {};
    return { subject: auth?.subject, clientId: auth?.clientId, scopes: auth?.scopes ?? [], email: claims.email, groups: claims.groups, idp: claims.idp, aud: claims.aud };
  }

  @Tool({ description: 'Calls the upstream userinfo endpoint with the upstream token.' })
  async upstreamProfile(@Ctx() ctx: Context) {
    const tokens = await ctx.upstreamTokens();
    return { provider: tokens?.provider, hasToken: typeof tokens?.accessToken === 'string', differs: tokens?.accessToken !== ctx.auth?.token, accessToken: tokens?.accessToken };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'signin', version: '1.0.0' })], providers: [ProfileTools] })
export class SignInModule {}

/** A public client registered by DCR (RFC 7591), as raw HTTP. */
export async function register(origin: string, redirectUris: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const response = await fetch(`${origin}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Raw Client', redirect_uris: redirectUris, token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], ...extra }),
  });
  const body = (await response.json()) as { client_id?: string };
  if (!body.client_id) throw new Error(`registration failed: ${JSON.stringify(body)}`);
  return body.client_id;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: require('node:crypto').createHash('sha256').update(verifier).digest('base64url') };
}

/** An authorization request URL: PKCE S256 and the resource unless `params` says otherwise (undefined drops one). */
export function authorizationUrl(origin: string, params: Record<string, string | undefined>): URL {
  const url = new URL(`${origin}/oauth/authorize`);
  for (const [key, value] of Object.entries({ response_type: 'code', state: randomBytes(8).toString('hex'), ...params })) if (value !== undefined) url.searchParams.set(key, value);
  return url;
}

/** A token endpoint request; the parsed answer and status. */
export async function tokenRequest(origin: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/oauth/token`, { method: 'POST', body: new URLSearchParams(form) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
