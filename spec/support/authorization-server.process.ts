// A real oidc-provider (OAuth 2.1 authorization server) on 127.0.0.1, run in its own Node process by
// ./authorization-server.ts: oidc-provider and jose are ESM-only, which plain Node 20 can require() but
// jest's module registry (on Node < 24.9) cannot, and a separate process also keeps its console output out of
// the test run. Started as `node -r ./spec/support/register.js <this file>`; talks to its parent over IPC.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import Provider from 'oidc-provider';

export interface ServerOptions {
  clientId: string;
  clientSecret: string;
  publicClientId: string;
  redirectUri: string;
  scopes: string[];
  /** Lifetime of every access token (client credentials, authorization code, refresh), in seconds. */
  accessTokenTtlSeconds: number;
}

/** One successful request to the token endpoint, as the authorization server saw it. */
export interface TokenGrant {
  grantType: string;
  clientId: string;
  /** The `resource` parameter (RFC 8707), if the request had one. */
  resource?: string;
  /** The scope of the issued token. */
  scope?: string;
  accessToken: string;
  /** Whether the response carried a refresh token. */
  refreshToken: boolean;
}

/** Parent → child. */
export type Command =
  | { id: number; command: 'rotateKeys' | 'close' }
  /** Every successful token request so far (TokenGrant[] as JSON). */
  | { id: number; command: 'grants' }
  /** Signs `payload` with the server's current ES256 key (its kid, unless `kid` is given): hand-made tokens. */
  | { id: number; command: 'sign'; payload: Record<string, unknown>; kid?: string };
/** Child → parent. */
export type Reply =
  | { type: 'ready'; issuer: string }
  | { type: 'done'; id: number; error?: string; value?: string };

type Jwk = Record<string, unknown>;
type Handler = (req: IncomingMessage, res: ServerResponse) => void;

let generation = 0;

/** One ES256 key (access tokens) and one RS256 key (oidc-provider requires RS256 for ID tokens), each with a kid. */
async function signingKeys(): Promise<Jwk[]> {
  generation += 1;
  const keys: Jwk[] = [];
  for (const alg of ['ES256', 'RS256'] as const) {
    const { privateKey } = await generateKeyPair(alg, { extractable: true });
    keys.push({ ...(await exportJWK(privateKey)), kid: `${alg.toLowerCase()}-${generation}`, alg, use: 'sig' });
  }
  return keys;
}

/** oidc-provider's storage contract, in memory and shared by every provider generation (no quick-start warning). */
function memoryAdapter() {
  const store = new Map<string, { payload: Record<string, unknown>; expiresAt?: number }>();
  const live = (key: string) => {
    const entry = store.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= Date.now()) store.delete(key);
    return store.get(key);
  };
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key(id: string) {
      return `${this.model}:${id}`;
    }
    async upsert(id: string, payload: Record<string, unknown>, expiresIn?: number) {
      store.set(this.key(id), { payload, expiresAt: expiresIn ? Date.now() + expiresIn * 1000 : undefined });
    }
    async find(id: string) {
      return live(this.key(id))?.payload;
    }
    async findByUserCode(userCode: string) {
      return [...store.values()].find((e) => e.payload.userCode === userCode)?.payload;
    }
    async findByUid(uid: string) {
      return [...store.values()].find((e) => e.payload.uid === uid)?.payload;
    }
    async consume(id: string) {
      const entry = live(this.key(id));
      if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of store) if (entry.payload.grantId === grantId) store.delete(key);
    }
  };
}

function createProvider(
  issuer: string,
  options: ServerOptions,
  jwks: Jwk[],
  adapter: ReturnType<typeof memoryAdapter>,
  grants: TokenGrant[],
): Provider {
  const scope = options.scopes.join(' ');
  const ttl = options.accessTokenTtlSeconds;
  const provider = new Provider(issuer, {
    adapter,
    jwks: { keys: jwks },
    scopes: ['openid', 'offline_access', ...options.scopes],
    clients: [
      {
        client_id: options.clientId,
        client_secret: options.clientSecret,
        grant_types: ['client_credentials'],
        response_types: [],
        redirect_uris: [],
        token_endpoint_auth_method: 'client_secret_basic',
        scope,
      },
      {
        client_id: options.publicClientId,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [options.redirectUri],
        scope: `openid offline_access ${scope}`,
      },
    ],
    pkce: { required: () => true },
    // Explicit lifetimes (seconds): the defaults print a notice when used.
    ttl: { AccessToken: ttl, ClientCredentials: ttl, AuthorizationCode: 60, Interaction: 600, Session: 3600, Grant: 3600, IdToken: 600, RefreshToken: 3600 },
    features: {
      // oidc-provider's own login and consent pages (any login, any password): the authorization code flow
      // is driven by AuthorizationServer.authorize(), as a browser would submit the forms.
      devInteractions: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: { enabled: true },
      revocation: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx, _client, oneOf) => oneOf,
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx, resourceIndicator) => ({
          scope,
          audience: resourceIndicator,
          accessTokenTTL: ttl,
          accessTokenFormat: 'jwt',
          jwt: { sign: { alg: 'ES256' } },
        }),
      },
    },
  });
  provider.on('grant.success', (ctx) => {
    const { params, client } = ctx.oidc;
    const body = ctx.body as { access_token: string; scope?: string; refresh_token?: string };
    grants.push({
      grantType: params.grant_type as string,
      clientId: client!.clientId,
      ...(typeof params.resource === 'string' ? { resource: params.resource } : {}),
      ...(body.scope !== undefined ? { scope: body.scope } : {}),
      accessToken: body.access_token,
      refreshToken: body.refresh_token !== undefined,
    });
  });
  return provider;
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2]) as ServerOptions;
  let handler: Handler = (_req, res) => res.writeHead(503).end();
  // RFC 8414 metadata (what MCP clients ask for first) is the same document as OIDC discovery.
  const server = createServer((req, res) => {
    if (req.url?.startsWith('/.well-known/oauth-authorization-server')) req.url = '/.well-known/openid-configuration';
    handler(req, res);
  });
  // The issuer must be known before the provider exists: bind port 0 first, then build the provider for it.
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const adapter = memoryAdapter();
  const grants: TokenGrant[] = [];
  let jwks = await signingKeys();
  handler = createProvider(issuer, options, jwks, adapter, grants).callback();

  const commands: Record<Command['command'], (command: Command) => Promise<string | void>> = {
    sign: async (command) => {
      const { payload, kid } = command as Extract<Command, { command: 'sign' }>;
      const jwk = jwks.find((k) => k.alg === 'ES256')!;
      const key = await importJWK(jwk as never, 'ES256');
      return new SignJWT(payload).setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: kid ?? (jwk.kid as string) }).sign(key);
    },
    // oidc-provider reads `jwks` once, at construction: build a new provider with the new keys first (they
    // sign from now on) and the previous ones kept (tokens they signed still verify), and swap it in
    // behind the same listening socket, so the issuer and port never change.
    rotateKeys: async () => {
      jwks = [...(await signingKeys()), ...jwks];
      handler = createProvider(issuer, options, jwks, adapter, grants).callback();
    },
    grants: async () => JSON.stringify(grants),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      process.disconnect?.();
    },
  };
  process.on('message', (message: Command) => {
    commands[message.command](message).then(
      (value) => process.send?.({ type: 'done', id: message.id, ...(typeof value === 'string' ? { value } : {}) } satisfies Reply),
      (e: unknown) => process.send?.({ type: 'done', id: message.id, error: String((e as Error)?.stack ?? e) } satisfies Reply),
    );
  });
  // If the test process dies, do not outlive it.
  process.on('disconnect', () => process.exit(0));
  process.send?.({ type: 'ready', issuer } satisfies Reply);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
