import { loadPeer } from '../../runtime/peer';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { AuthorizationServerOptions } from '../../interfaces';

/** Built here beside the options checks, for the authorization server's configuration. */

export function fail(cause: string, fix: string): never {
  throw new BootstrapError(BootstrapErrorCode.InvalidAuthOptions, `Cannot serve with these auth options: ${cause}\nFix: ${fix}`);
}

/** A peer the authorization server needs (through the one loader), or OPTIONAL_DEPENDENCY_MISSING naming it and the install. */
export function peer<T>(name: 'oidc-provider' | 'openid-client'): T {
  return loadPeer<T>(name, { feature: 'auth.server (the authorization server of mcp-reflect/auth-server)', install: 'npm install oidc-provider@9 openid-client@6' });
}

export function checkServerOptions(options: AuthorizationServerOptions): void {
  const upstream = options.upstream as Partial<AuthorizationServerOptions['upstream']> | undefined;
  if (!upstream || typeof upstream.issuer !== 'string' || !URL.canParse(upstream.issuer)) {
    fail(
      `auth.server.upstream must name the provider users sign in at (got issuer ${JSON.stringify(upstream?.issuer)}).`,
      "auth: { server: { upstream: githubUpstream({ clientId, clientSecret }) } }, or oidcUpstream({ issuer: 'https://accounts.example.com', clientId, clientSecret }) from mcp-reflect/auth-server.",
    );
  }
  if (typeof upstream.clientId !== 'string' || upstream.clientId === '') {
    fail('auth.server.upstream.clientId is missing.', "register this server as a client at the provider (redirect URI <origin>/oauth/callback) and give its client id and secret.");
  }
  if (options.issuer !== undefined && !URL.canParse(options.issuer)) fail(`auth.server.issuer must be a URL (got ${JSON.stringify(options.issuer)}).`, 'leave it out (the endpoint\'s origin), or give the public origin.');
  const sealing = options.keys?.upstreamTokens;
  if (sealing !== undefined && Buffer.from(sealing, 'base64url').length !== 32) {
    fail(`keys.upstreamTokens must be 32 bytes in base64 (got ${Buffer.from(sealing, 'base64url').length} bytes).`, "generate one: node -e \"console.log(require('crypto').randomBytes(32).toString('base64'))\"");
  }
  const bad = (options.keys?.signing ?? []).findIndex((key) => typeof key.kid !== 'string' || typeof key.alg !== 'string' || typeof key.d !== 'string');
  if (bad >= 0) fail(`keys.signing[${bad}] must be a private JWK with kid and alg (e.g. ES256).`, "export one with jose: { ...(await exportJWK(privateKey)), kid: 'key-1', alg: 'ES256', use: 'sig' }.");
  const rotation = options.keys?.rotation;
  if (rotation !== undefined) {
    if (options.keys?.signing !== undefined) fail('keys.signing and keys.rotation are both given.', 'give keys.signing (your keys, rotated by you) or keys.rotation (keys the server makes and rotates), not both.');
    if (!(Number.isFinite(rotation.every) && rotation.every >= 2)) fail(`keys.rotation.every must be a number of seconds (at least 2), got ${JSON.stringify(rotation.every)}.`, 'e.g. keys: { rotation: { every: 30 * 86_400 } } (30 days).');
    if (rotation.publishAhead !== undefined && !(rotation.publishAhead >= 1 && rotation.publishAhead < rotation.every)) fail(`keys.rotation.publishAhead must be at least 1 second and less than every (${rotation.every}), got ${JSON.stringify(rotation.publishAhead)}.`, 'leave it out (an hour, at most half of every).');
    if (options.keys?.upstreamTokens === undefined && options.store !== undefined) fail('keys.rotation keeps the keys in the shared store, sealed with keys.upstreamTokens, which is not given.', "give every instance the same keys.upstreamTokens (32 bytes, base64).");
  }
  if (options.keys?.signing?.length === 0) fail('keys.signing is empty.', 'give at least one private JWK, or leave keys.signing out (a key made at start).');
}

/**
 * Fails the bootstrap for confidential clients given in the options (`machineClients.clients`,
 * `identityAssertion.clients`; `at` names the list): ids that are names and unique, exactly one way to
 * authenticate (keys for private_key_jwt, or a secret of 32 characters at least). Answers the ids.
 */
export function checkClientCredentials(
  clients: readonly { readonly clientId: string; readonly clientSecret?: string; readonly jwks?: object; readonly jwksUri?: string }[],
  at: string,
  example: string,
): Set<string> {
  const ids = new Set<string>();
  clients.forEach((client, i) => {
    const site = `${at}[${i}]`;
    if (typeof client.clientId !== 'string' || client.clientId === '' || URL.canParse(client.clientId)) fail(`${site}.clientId must be a name (not a URL), got ${JSON.stringify(client.clientId)}.`, `give each client an id, e.g. clientId: '${example}'.`);
    if (ids.has(client.clientId)) fail(`${site}.clientId '${client.clientId}' is given twice.`, 'give each client its own id.');
    ids.add(client.clientId);
    const ways = [client.jwks, client.jwksUri, client.clientSecret].filter((way) => way !== undefined).length;
    if (ways !== 1) fail(`${site} ('${client.clientId}') must give exactly one of jwks, jwksUri or clientSecret (it gives ${ways}).`, 'give its public keys (jwks: { keys: [publicJwk] }) for private_key_jwt, or a clientSecret.');
    if (client.clientSecret !== undefined && client.clientSecret.length < 32) fail(`${site}.clientSecret ('${client.clientId}') is shorter than 32 characters.`, "generate one: node -e \"console.log(require('crypto').randomBytes(32).toString('base64url'))\", or use keys (jwks).");
    if (client.jwksUri !== undefined && !/^https?:\/\//.test(client.jwksUri)) fail(`${site}.jwksUri ('${client.clientId}') must be an http(s) URL.`, 'give the URL its public keys are published at, or jwks.');
  });
  return ids;
}
