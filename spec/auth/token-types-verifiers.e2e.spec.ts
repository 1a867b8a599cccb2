import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { McpFactory, type McpApplication, type McpAuth } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { expectRefused, expectServed, startLocalIssuers, type LocalIssuers } from './local-issuer';

const now = () => Math.floor(Date.now() / 1000);
const opaque = () => randomBytes(24).toString('base64url');
const REFRESH = 'The token is a refresh token, not an access token';
const DPOP_BOUND = 'this server accepts bearer tokens only.';

/**
 * The siblings of JWT verification: an RFC 7662 introspection endpoint (on loopback, answering what each case
 * sets) and a custom `verify` can vouch for tokens that are not access tokens; those are refused as JWTs are,
 * through real HTTP to the MCP endpoint, and a refused token is never kept as verified.
 */
describe('HTTP authorization: only access tokens, by introspection and custom verifiers', () => {
  let local: LocalIssuers;
  let introspected: McpApplication;
  let custom: McpApplication;
  let introspectedUrl: string;
  let customUrl: string;

  /** The custom verifier: the token is base64url JSON of the claims to return (with aud, iss and exp added). */
  const verify = async (token: string): Promise<McpAuth> => {
    const claims = { ...(JSON.parse(Buffer.from(token, 'base64url').toString()) as Record<string, unknown>), aud: customUrl, iss: local.issuer('/idp'), exp: now() + 600 };
    return { subject: 'alice', clientId: 'app', scopes: [], expiresAt: claims.exp, issuer: claims.iss, claims, token };
  };
  const customToken = (claims: Record<string, unknown>) => Buffer.from(JSON.stringify(claims)).toString('base64url');

  beforeAll(async () => {
    local = await startLocalIssuers(['/idp']);
    introspected = await McpFactory.create(NotesAuthModule);
    await introspected.listen({
      transport: 'http',
      port: 0,
      auth: { issuer: local.issuer('/idp'), introspection: { endpoint: local.introspectionEndpoint, clientId: 'rs', clientSecret: 'rs-secret' } },
    });
    introspectedUrl = await introspected.getUrl();
    custom = await McpFactory.create(NotesAuthModule);
    await custom.listen({ transport: 'http', port: 0, auth: { issuer: local.issuer('/idp'), verify } });
    customUrl = await custom.getUrl();
  });
  afterAll(async () => {
    await Promise.all([introspected, custom].map((a) => a?.close()));
    await local?.close();
  });

  describe('introspection', () => {
    /** An active token's answer as an authorization server gives it for an access token of this server. */
    const answer = (overrides: Record<string, unknown> = {}) => {
      const all: Record<string, unknown> = { active: true, token_type: 'Bearer', client_id: 'app', scope: 'notes:read', sub: 'alice', aud: introspectedUrl, iss: local.issuer('/idp'), exp: now() + 600, ...overrides };
      for (const key of Object.keys(all)) if (all[key] === undefined) delete all[key];
      return all;
    };
    const introspectable = (overrides?: Record<string, unknown>) => {
      const token = opaque();
      local.answers.set(token, answer(overrides));
      return token;
    };

    it.each([
      ['token_type refresh_token', { token_type: 'refresh_token' }, `${REFRESH}: its token_type is refresh_token.`],
      ['token_type urn:…:refresh_token', { token_type: 'urn:ietf:params:oauth:token-type:refresh_token' }, `${REFRESH}: its token_type is urn:ietf:params:oauth:token-type:refresh_token.`],
      ['token_type urn:…:id_token', { token_type: 'urn:ietf:params:oauth:token-type:id_token' }, 'The token is an ID token, not an access token: its token_type is urn:ietf:params:oauth:token-type:id_token.'],
      ['token_type N_A', { token_type: 'N_A' }, 'The token is not a bearer access token: its token_type is N_A.'],
      ['token_type DPoP', { token_type: 'DPoP' }, `The access token is bound to a DPoP key (token_type DPoP): ${DPOP_BOUND}`],
      ['cnf.jkt', { cnf: { jkt: '0ZcOCORZNYy-DWpqq30jZyJGHTN0d2HglBV3uiguA4I' } }, `The access token is bound to a DPoP key (cnf.jkt): ${DPOP_BOUND}`],
      ['Keycloak typ Refresh (no token_type)', { token_type: undefined, typ: 'Refresh', azp: 'app' }, `${REFRESH}: its typ claim is Refresh.`],
      ['Keycloak typ ID', { token_type: undefined, typ: 'ID', azp: 'app' }, 'The token is an ID token, not an access token: its typ claim is ID.'],
      ['an ID token (nonce)', { token_type: undefined, nonce: 'n' }, 'The token is an ID token, not an access token: it carries a nonce claim.'],
    ])('refuses an active answer that is not a bearer access token: %s, and asks again for each request', async (_name, overrides, description) => {
      const token = introspectable(overrides);
      await expectRefused(introspectedUrl, token, description);
      // Never kept as verified: each of the four requests was introspected.
      expect(local.introspections(token)).toBe(4);
    });

    it.each([
      ['token_type Bearer', {}],
      ['token_type bearer, lowercase', { token_type: 'bearer' }],
      ['token_type access_token', { token_type: 'access_token' }],
      ['no token_type', { token_type: undefined }],
      ['no client_id and no scope (both optional in RFC 7662)', { client_id: undefined, scope: undefined }],
      ['Keycloak before 25 (typ Bearer, the nonce it copied)', { typ: 'Bearer', nonce: 'n', azp: 'app' }],
    ])('serves an active access token: %s, introspected once', async (_name, overrides) => {
      const token = introspectable(overrides);
      await expectServed(introspectedUrl, token);
      expect(local.introspections(token)).toBe(1);
    });
  });

  describe('a custom verifier', () => {
    it.each([
      ['a Keycloak ID token', { typ: 'ID' }, 'The token is an ID token, not an access token: its typ claim is ID.'],
      ['a Cognito ID token', { token_use: 'id' }, 'The token is an ID token, not an access token: its token_use claim is id.'],
      ['an ID token with a nonce', { nonce: 'n' }, 'The token is an ID token, not an access token: it carries a nonce claim.'],
      ['a logout token', { events: { 'http://schemas.openid.net/event/backchannel-logout': {} } }, 'The token is a security event token, not an access token: it carries an events claim.'],
      ['a DPoP-bound token', { cnf: { jkt: 'x' } }, `The access token is bound to a DPoP key (cnf.jkt): ${DPOP_BOUND}`],
    ])('refuses the claims of %s it returns', async (_name, claims, description) => {
      await expectRefused(customUrl, customToken(claims), description);
    });

    it('serves what it vouches for otherwise: no client or scope claims needed, an events list of its own', async () => {
      await expectServed(customUrl, customToken({}));
      await expectServed(customUrl, customToken({ tenant_id: 't1', events: ['read'] }));
      await expectServed(customUrl, customToken({ typ: 'Bearer', nonce: 'n' }));
    });
  });
});
