import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Command, Reply, ServerOptions, TokenGrant } from './authorization-server.process';

export type { TokenGrant };

/**
 * A real OAuth 2.1 authorization server (oidc-provider) on 127.0.0.1 and an OS-chosen port, for the
 * authorization specs. It runs in a child process (see ./authorization-server.process.ts for why); tokens
 * are obtained over real HTTP from its token endpoint.
 */
export interface AuthorizationServer {
  /** `http://127.0.0.1:<port>`, the `iss` of every token. */
  readonly issuer: string;
  readonly jwksUri: string;
  readonly tokenEndpoint: string;
  /** RFC 8414 metadata; the same document is served at `/.well-known/openid-configuration`. */
  readonly metadataUrl: string;
  /** The confidential client, allowed the `client_credentials` grant (client_secret_basic). */
  readonly clientId: string;
  readonly clientSecret: string;
  /**
   * A public client for `authorization_code` with PKCE (S256) and `refresh_token` (with `offline_access` and
   * `prompt=consent`); users sign in and consent on oidc-provider's development pages, see `authorize()`.
   */
  readonly publicClient: { readonly clientId: string; readonly redirectUri: string };
  /**
   * A client-credentials access token. With `resource`, it is a JWT (ES256) whose `aud` is that resource and
   * whose `scope` is the requested scopes the resource allows; without it, an opaque token.
   */
  token(options?: { scope?: string; resource?: string }): Promise<string>;
  /**
   * A hand-made token signed with the server's current ES256 key (as its own tokens are): any claims, e.g. an
   * `exp` in the past. `kid` overrides the key id in the header.
   */
  sign(payload: Record<string, unknown>, kid?: string): Promise<string>;
  /** New signing keys sign from now on; the previous ones stay in the JWKS, so earlier tokens still verify. */
  rotateKeys(): Promise<void>;
  /**
   * What a user's browser does with an authorization request URL: follows the redirects (keeping cookies),
   * signs in as `login` (default `alice`; any password), consents, and stops at the redirect to the
   * client's redirect URI, which it returns (with `code`, `state` and `iss`, or `error`).
   */
  authorize(authorizationUrl: string | URL, options?: { login?: string }): Promise<URL>;
  /** Every successful token endpoint request so far, oldest first. */
  grants(): Promise<TokenGrant[]>;
  /** Stops the server and its process. */
  close(): Promise<void>;
}

export interface AuthorizationServerOptions {
  /** Scopes every resource server accepts; default `notes:read notes:write`. */
  scopes?: string[];
  clientId?: string;
  clientSecret?: string;
  /** Default `http://127.0.0.1/callback`. */
  redirectUri?: string;
  /** Lifetime of every access token it issues, in seconds; default 600. */
  accessTokenTtlSeconds?: number;
  /** How long to wait for the server to start; default 10 s. */
  startTimeoutMs?: number;
}

type DistributiveOmit<T, K extends keyof any> = T extends unknown ? Omit<T, K> : never;

const PROCESS = path.join(__dirname, 'authorization-server.process.ts');
const REGISTER = path.join(__dirname, 'register.js');

export async function startAuthorizationServer(options: AuthorizationServerOptions = {}): Promise<AuthorizationServer> {
  const serverOptions: ServerOptions = {
    clientId: options.clientId ?? 'test-client',
    clientSecret: options.clientSecret ?? 'test-client-secret',
    publicClientId: 'test-public-client',
    redirectUri: options.redirectUri ?? 'http://127.0.0.1/callback',
    scopes: options.scopes ?? ['notes:read', 'notes:write'],
    accessTokenTtlSeconds: options.accessTokenTtlSeconds ?? 600,
  };
  // Its console output (oidc-provider warns about Node 20, for one) is kept here, shown only when something fails.
  const child = fork(PROCESS, [JSON.stringify(serverOptions)], { execArgv: ['-r', REGISTER], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const failure = (what: string) => new Error(`authorization server: ${what}${output ? `\n--- its output ---\n${output}` : ''}`);

  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const pending = new Map<number, { resolve: (value?: string) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  child.on('message', (reply: Reply) => {
    if (reply.type !== 'done') return;
    const waiter = pending.get(reply.id);
    pending.delete(reply.id);
    if (reply.error) waiter?.reject(failure(reply.error));
    else waiter?.resolve(reply.value);
  });
  child.once('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(failure(`process exited (${code})`));
    pending.clear();
  });
  const send = (command: DistributiveOmit<Command, 'id'>) =>
    new Promise<string | undefined>((resolve, reject) => {
      const id = ++nextId;
      pending.set(id, { resolve, reject });
      child.send({ id, ...command } as Command);
    });

  let issuer: string;
  try {
    issuer = await ready(child, options.startTimeoutMs ?? 10_000);
  } catch (e) {
    child.kill('SIGKILL');
    throw failure((e as Error).message);
  }

  const metadataUrl = `${issuer}/.well-known/oauth-authorization-server`;
  const metadata = (await (await fetch(metadataUrl)).json()) as { jwks_uri: string; token_endpoint: string };
  const basic = `Basic ${Buffer.from(`${encodeURIComponent(serverOptions.clientId)}:${encodeURIComponent(serverOptions.clientSecret)}`).toString('base64')}`;

  return {
    issuer,
    jwksUri: metadata.jwks_uri,
    tokenEndpoint: metadata.token_endpoint,
    metadataUrl,
    clientId: serverOptions.clientId,
    clientSecret: serverOptions.clientSecret,
    publicClient: { clientId: serverOptions.publicClientId, redirectUri: serverOptions.redirectUri },
    async token({ scope, resource } = {}) {
      const body = new URLSearchParams({ grant_type: 'client_credentials' });
      if (scope !== undefined) body.set('scope', scope);
      if (resource !== undefined) body.set('resource', resource);
      const response = await fetch(metadata.token_endpoint, { method: 'POST', headers: { authorization: basic }, body });
      const text = await response.text();
      if (!response.ok) throw new Error(`token request failed (${response.status}): ${text}`);
      return (JSON.parse(text) as { access_token: string }).access_token;
    },
    sign: async (payload, kid) => (await send({ command: 'sign', payload, ...(kid !== undefined ? { kid } : {}) }))!,
    rotateKeys: async () => void (await send({ command: 'rotateKeys' })),
    authorize: (authorizationUrl, { login = 'alice' } = {}) => browse(new URL(authorizationUrl), serverOptions.redirectUri, login),
    grants: async () => JSON.parse((await send({ command: 'grants' }))!) as TokenGrant[],
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      await send({ command: 'close' }).catch(() => undefined);
      const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** A cookie as a browser keeps it: by name and path (every cookie here is for the issuer's host). */
interface Cookie {
  name: string;
  value: string;
  path: string;
}

/**
 * Follows an authorization request like a browser: redirects by hand (fetch's `redirect: 'manual'`), cookies
 * kept and sent back by path, each page's form submitted with its hidden fields (and the login, on the
 * sign-in page), until the redirect to `redirectUri`.
 */
async function browse(start: URL, redirectUri: string, login: string): Promise<URL> {
  const cookies: Cookie[] = [];
  let url = start;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 20; step++) {
    const cookie = cookies
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
    const response = await fetch(url, {
      method: form ? 'POST' : 'GET',
      redirect: 'manual',
      headers: { ...(cookie ? { cookie } : {}), ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) },
      ...(form ? { body: form } : {}),
    });
    for (const header of response.headers.getSetCookie()) keep(cookies, header);
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      url = new URL(location, url);
      form = undefined;
      if (url.href.startsWith(redirectUri)) return url;
      continue;
    }
    const page = await response.text();
    if (response.status !== 200) throw new Error(`authorize: ${url.href} answered ${response.status}: ${page.slice(0, 500)}`);
    const action = /<form[^>]*\saction="([^"]*)"/.exec(page)?.[1];
    if (!action) throw new Error(`authorize: ${url.href} shows no form: ${page.slice(0, 500)}`);
    form = new URLSearchParams();
    for (const [, name, value] of page.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]*)"[^>]*value="([^"]*)"/g)) form.set(name, value);
    if (form.get('prompt') === 'login') {
      form.set('login', login);
      form.set('password', 'any');
    }
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error(`authorize: no redirect to ${redirectUri} after 20 steps`);
}

/** Keeps (or, when expired, drops) the cookie a `Set-Cookie` header sets. */
function keep(cookies: Cookie[], header: string): void {
  const [pair, ...attributes] = header.split(';').map((part) => part.trim());
  const eq = pair.indexOf('=');
  const name = pair.slice(0, eq);
  const value = pair.slice(eq + 1);
  const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key}=`))?.slice(key.length + 1);
  const path = attribute('path') ?? '/';
  const expires = attribute('expires');
  const expired = attribute('max-age') === '0' || (expires !== undefined && Date.parse(expires) <= Date.now());
  const index = cookies.findIndex((c) => c.name === name && c.path === path);
  if (index >= 0) cookies.splice(index, 1);
  if (!expired && value !== '') cookies.push({ name, value, path });
}

function ready(child: ChildProcess, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start within ${timeoutMs} ms`)), timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`process exited (${code}) before it was ready`));
    });
    child.on('message', (reply: Reply) => {
      if (reply.type !== 'ready') return;
      clearTimeout(timer);
      resolve(reply.issuer);
    });
  });
}
