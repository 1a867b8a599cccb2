import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as jose from 'jose';

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

/**
 * A real oidc-provider as the *enterprise* identity provider (what Okta or Entra ID is to a company): it signs its
 * users' ID tokens (the single sign-on the company's apps did) and, by RFC 8693 token exchange — a grant registered
 * with oidc-provider's own `registerGrantType()` — turns one into an ID-JAG for the MCP server's authorization
 * server (SEP-990): `typ: oauth-id-jag+jwt`, `aud` that server's issuer, `resource` the MCP endpoint, `client_id`
 * the client's id there (the IdP's policy maps its own client to it), a `jti`, five minutes of life.
 */
export interface EnterpriseIdp {
  readonly issuer: string;
  /** The IdP's client of the agent (it authenticates the token exchange). */
  readonly clientId: string;
  readonly clientSecret: string;
  /** An ID token for a user, as the company's single sign-on gave it to the agent. */
  idToken(sub: string, claims?: Record<string, unknown>): Promise<string>;
  /** Signs any ID-JAG-shaped JWT with the IdP's key (for the attacks); `header` overrides the protected header. */
  sign(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** ID-JAGs issued by the exchange so far. */
  readonly issued: string[];
  close(): Promise<void>;
}

export async function startEnterpriseIdp(options: { mcpClientId: string; scopes?: readonly string[] }): Promise<EnterpriseIdp> {
  const Provider = (require('oidc-provider') as { default: new (issuer: string, config: Record<string, unknown>) => any }).default;
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = { ...privateKey.export({ format: 'jwk' }), kid: 'idp-1', alg: 'ES256', use: 'sig' };
  const key = await jose.importJWK(jwk as jose.JWK, 'ES256');
  const publicKeys = jose.createLocalJWKSet({ keys: [{ kty: jwk.kty!, crv: jwk.crv!, x: jwk.x!, y: jwk.y!, kid: 'idp-1', alg: 'ES256', use: 'sig' }] });
  const clientId = 'agent-at-idp';
  const clientSecret = randomBytes(24).toString('base64url');
  const issued: string[] = [];
  let handler: ((req: unknown, res: unknown) => void) | undefined;
  const server: Server = createServer((req, res) => handler!(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const sign = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new jose.SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: 'idp-1', ...header }).sign(key);

  const provider = new Provider(issuer, {
    jwks: { keys: [jwk] },
    clients: [{ client_id: clientId, client_secret: clientSecret, grant_types: [TOKEN_EXCHANGE], response_types: [], redirect_uris: [], token_endpoint_auth_method: 'client_secret_post', id_token_signed_response_alg: 'ES256' }],
    features: { devInteractions: { enabled: false } },
  });
  provider.registerGrantType(
    TOKEN_EXCHANGE,
    async (ctx: { oidc: { params: Record<string, string>; client: { clientId: string } }; status?: number; body?: unknown }) => {
      const { params } = ctx.oidc;
      const refuse = (error: string, description: string) => {
        ctx.status = 400;
        ctx.body = { error, error_description: description };
      };
      if (params.requested_token_type !== ID_JAG || params.subject_token_type !== ID_TOKEN) return refuse('invalid_request', 'only ID tokens are exchanged, for ID-JAGs');
      let user: jose.JWTPayload;
      try {
        ({ payload: user } = await jose.jwtVerify(params.subject_token, publicKeys, { issuer, audience: clientId }));
      } catch {
        return refuse('invalid_grant', 'the ID token is invalid');
      }
      const now = Math.floor(Date.now() / 1000);
      const scope = (params.scope ?? '').split(' ').filter((s) => (options.scopes ?? []).includes(s)).join(' ');
      const grant = await sign(
        { iss: issuer, sub: user.sub, aud: params.audience, resource: params.resource, client_id: options.mcpClientId, jti: randomBytes(12).toString('hex'), iat: now, exp: now + 300, email: user.email, ...(scope ? { scope } : {}) },
        { typ: 'oauth-id-jag+jwt' },
      );
      issued.push(grant);
      ctx.body = { access_token: grant, issued_token_type: ID_JAG, token_type: 'N_A', expires_in: 300, ...(scope ? { scope } : {}) };
    },
    ['requested_token_type', 'audience', 'resource', 'subject_token', 'subject_token_type', 'scope'],
  );
  handler = provider.callback();

  return {
    issuer,
    clientId,
    clientSecret,
    issued,
    sign,
    idToken: (sub, claims = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return sign({ iss: issuer, sub, aud: clientId, iat: now, exp: now + 600, ...claims });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
