import 'reflect-metadata';
import * as jose from 'jose';
import { BootstrapErrorCode, McpFactory, type AuthOptions, type McpApplication } from 'mcp-reflect';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { ath, dpopKey, now, proofRefused, send, type DpopKey } from './dpop-support';
import { startLocalIssuers, type LocalIssuers } from './local-issuer';

const ALGS = 'ES256 ES384 ES512 PS256 PS384 PS512 RS256 RS384 RS512 EdDSA Ed25519';

/**
 * RFC 9449 at the resource server, over real HTTP to a real server (Node HTTP): a DPoP-bound token is accepted
 * with a proof of its key, and every attack class of RFC 9449 §11 is refused with its reason: a replayed proof, a
 * proof for another method or URL, a stale one, one for another token (ath), one signed with another key than the
 * token's cnf.jkt, a stolen bound token presented as a bearer token, a bearer token presented as DPoP; server
 * nonces; `required`; and the replay cache's bounds (one key's flood never evicts another key's proofs).
 */
describe('HTTP authorization: DPoP (RFC 9449)', () => {
  let local: LocalIssuers;
  const apps: McpApplication[] = [];
  let alice: DpopKey;
  let mallory: DpopKey;

  beforeAll(async () => {
    local = await startLocalIssuers(['/idp']);
    [alice, mallory] = await Promise.all([dpopKey(), dpopKey()]);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await local?.close();
  });

  /** A server accepting tokens of the local issuer, with `dpop` (and the rest of `auth`): its URL. */
  const serve = async (auth: Partial<AuthOptions>): Promise<string> => {
    const app = await McpFactory.create(NotesAuthModule);
    apps.push(app);
    await app.listen({ transport: 'http', port: 0, stateless: true, auth: { issuer: local.issuer('/idp'), scopesSupported: ['notes:read', 'notes:write'], ...auth } });
    return app.getUrl();
  };
  /** An access token for `url`, bound to `key` (cnf.jkt) unless it is undefined. */
  const token = (url: string, key: DpopKey | undefined, claims: Record<string, unknown> = {}) =>
    local.sign({ iss: local.issuer('/idp'), aud: url, iat: now(), exp: now() + 600, sub: 'alice', client_id: 'app', scope: 'notes:read', ...(key ? { cnf: { jkt: key.jkt } } : {}), ...claims });

  describe('accepted alongside bearer tokens (dpop: true)', () => {
    let url: string;
    beforeAll(async () => {
      url = await serve({ dpop: true });
    });

    it('serves a DPoP-bound token with a proof of its key, and still serves bearer tokens', async () => {
      const bound = await token(url, alice);
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound }))).toMatchObject({ status: 200 });
      // The query and fragment of htu are not compared (RFC 9449 §4.3 step 9).
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: `${url}?x=1#y`, token: bound }))).toMatchObject({ status: 200 });
      const bearer = await token(url, undefined);
      expect(await send(url, 'Bearer', bearer)).toMatchObject({ status: 200 });
    });

    it('publishes the proof algorithms in the resource metadata and in a DPoP challenge beside the Bearer one', async () => {
      const metadata = (await (await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
      expect(metadata.dpop_signing_alg_values_supported).toEqual(ALGS.split(' '));
      expect(metadata.dpop_bound_access_tokens_required).toBeUndefined();
      const refused = await fetch(url, { method: 'POST' });
      expect(refused.status).toBe(401);
      const resourceMetadata = `resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp"`;
      expect(refused.headers.get('www-authenticate')).toBe(`Bearer ${resourceMetadata}, scope="notes:read notes:write", DPoP algs="${ALGS}", ${resourceMetadata}, scope="notes:read notes:write"`);
    });

    it('refuses a replayed proof (the same jti twice), and counts it per key', async () => {
      const bound = await token(url, alice);
      const proof = await alice.proof({ htu: url, token: bound });
      expect(await send(url, 'DPoP', bound, proof)).toMatchObject({ status: 200 });
      const replayed = await send(url, 'DPoP', bound, proof);
      expect(replayed).toMatchObject(proofRefused('The DPoP proof was used before (jti): make a new proof for each request.'));
      expect(replayed.challenge).toMatch(/^DPoP algs="[^"]+", resource_metadata="[^"]+", scope="[^"]+", error="invalid_dpop_proof", error_description="The DPoP proof was used before \(jti\): make a new proof for each request\.", Bearer /);
      // A proof with the same jti signed with another key (its own token) is another proof.
      const other = await token(url, mallory);
      expect(await send(url, 'DPoP', other, await mallory.proof({ htu: url, token: other, jti: jose.decodeJwt(proof).jti as string }))).toMatchObject({ status: 200 });
    });

    it('refuses a proof for another method or another URL', async () => {
      const bound = await token(url, alice);
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, htm: 'GET' }))).toMatchObject(proofRefused('The DPoP proof is for another method (htm must be POST).'));
      const otherUrl = 'The DPoP proof is for another URL (htu must be the URL of this request, without query or fragment).';
      for (const htu of [`${new URL(url).origin}/other`, url.replace('127.0.0.1', 'localhost'), url.replace('http:', 'https:'), 'not a url']) {
        expect({ htu, answer: await send(url, 'DPoP', bound, await alice.proof({ htu, token: bound })) }).toMatchObject({ htu, answer: proofRefused(otherUrl) });
      }
    });

    it('refuses a stale proof, one from the future, and one without iat', async () => {
      const bound = await token(url, alice);
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, iat: now() - 60 - 30 - 5 }))).toMatchObject(
        proofRefused('The DPoP proof is too old (iat more than 60 seconds ago): make a new proof for each request.'),
      );
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, iat: now() + 120 }))).toMatchObject(proofRefused('The DPoP proof is made in the future (iat): check the clock.'));
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, claims: { iat: undefined } }))).toMatchObject(proofRefused('The DPoP proof needs an iat (when it was made).'));
      // Within the window (and the clock tolerance), an older proof is still accepted.
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, iat: now() - 70 }))).toMatchObject({ status: 200 });
    });

    it('refuses a proof made for another token (ath) or for none', async () => {
      const bound = await token(url, alice);
      const another = await token(url, alice, { sub: 'bob' });
      const why = 'The DPoP proof is for another access token (ath must be the SHA-256 of this token).';
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: another }))).toMatchObject(proofRefused(why));
      expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url }))).toMatchObject(proofRefused(why));
    });

    it("refuses a proof signed with another key than the token's cnf.jkt: a stolen token with the thief's own key", async () => {
      const bound = await token(url, alice);
      expect(await send(url, 'DPoP', bound, await mallory.proof({ htu: url, token: bound }))).toMatchObject(
        proofRefused('The DPoP proof is signed with another key than the one the access token is bound to (cnf.jkt).'),
      );
    });

    it('refuses a stolen bound token presented as a bearer token, with or without a proof beside it', async () => {
      const bound = await token(url, alice);
      const description = 'The access token is bound to a DPoP key: present it as Authorization: DPoP <token> with a DPoP proof (RFC 9449).';
      for (const proof of [undefined, await alice.proof({ htu: url, token: bound })]) {
        const answer = await send(url, 'Bearer', bound, proof);
        expect(answer).toMatchObject({ status: 401, body: { error: 'invalid_token', error_description: description } });
        expect(answer.challenge).toMatch(new RegExp(`^Bearer resource_metadata="[^"]+", scope="[^"]+", error="invalid_token", error_description="${description.replace(/[().<>]/g, '\\$&')}", DPoP algs=`));
      }
    });

    it('refuses a bearer token presented with the DPoP scheme, and a DPoP request without exactly one proof', async () => {
      const bearer = await token(url, undefined);
      expect(await send(url, 'DPoP', bearer, await alice.proof({ htu: url, token: bearer }))).toMatchObject({
        status: 401,
        body: { error: 'invalid_token', error_description: 'The access token is not bound to a DPoP key: present it as Authorization: Bearer <token>.' },
      });
      const bound = await token(url, alice);
      expect(await send(url, 'DPoP', bound)).toMatchObject(proofRefused('A DPoP proof is required with Authorization: DPoP: send it in the DPoP header.'));
      const two = [await alice.proof({ htu: url, token: bound }), await alice.proof({ htu: url, token: bound })];
      expect(await send(url, 'DPoP', bound, two)).toMatchObject(proofRefused('Send exactly one DPoP proof.'));
    });

    it('refuses proofs that are not asymmetric signatures by a public jwk, typed dpop+jwt', async () => {
      const bound = await token(url, alice);
      const key = await dpopKey();
      const cases: [string, string, string][] = [
        ['typ JWT', await alice.proof({ htu: url, token: bound, header: { typ: 'JWT' } }), 'The DPoP proof must be typed dpop+jwt.'],
        ['no jwk', await alice.proof({ htu: url, token: bound, header: { jwk: undefined } }), 'The DPoP proof needs a valid jwk header (the public key that signed it).'],
        ['a private jwk', await key.proof({ htu: url, token: bound, header: { jwk: key.privateJwk } }), 'The jwk of the DPoP proof must be a public key.'],
        [
          'HS256',
          await new jose.SignJWT({ htm: 'POST', htu: url, iat: now(), jti: 'hs', ath: ath(bound) })
            .setProtectedHeader({ typ: 'dpop+jwt', alg: 'HS256', jwk: { kty: 'oct', k: 'c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' } as jose.JWK as jose.JWTHeaderParameters['jwk'] })
            .sign(new TextEncoder().encode('secretsecretsecretsecretsecret00')),
          'The DPoP proof is signed with an algorithm this server does not accept (see algs in WWW-Authenticate).',
        ],
        ['alg none', `${Buffer.from(JSON.stringify({ typ: 'dpop+jwt', alg: 'none', jwk: alice.publicJwk })).toString('base64url')}.${Buffer.from(JSON.stringify({ htm: 'POST', htu: url, iat: now(), jti: 'none' })).toString('base64url')}.`, 'The DPoP proof is signed with an algorithm this server does not accept (see algs in WWW-Authenticate).'],
        ['a forged signature', (await alice.proof({ htu: url, token: bound })).replace(/\.[^.]+$/, `.${Buffer.alloc(64, 1).toString('base64url')}`), "The DPoP proof's signature is invalid."],
        ['no jti', await alice.proof({ htu: url, token: bound, claims: { jti: undefined } }), 'The DPoP proof needs a jti of 1 to 128 characters.'],
        ['not a JWT', 'not-a-jwt', 'The DPoP proof is malformed: expected a JWT signed with the key in its jwk header.'],
      ];
      for (const [what, proof, description] of cases) {
        expect({ what, answer: await send(url, 'DPoP', bound, proof) }).toMatchObject({ what, answer: proofRefused(description) });
      }
    });

    it('accepts an opaque token whose introspection says DPoP and names the key (RFC 9449 §6.2)', async () => {
      const introspected = await serve({ issuer: local.issuer('/idp'), introspection: { endpoint: local.introspectionEndpoint, clientId: 'rs', clientSecret: 's' }, dpop: true });
      const opaque = `opaque-${Date.now()}`;
      local.answers.set(opaque, { active: true, token_type: 'DPoP', cnf: { jkt: alice.jkt }, iss: local.issuer('/idp'), aud: introspected, exp: now() + 600, sub: 'alice', client_id: 'app', scope: 'notes:read' });
      expect(await send(introspected, 'DPoP', opaque, await alice.proof({ htu: introspected, token: opaque }))).toMatchObject({ status: 200 });
      expect(await send(introspected, 'DPoP', opaque, await mallory.proof({ htu: introspected, token: opaque }))).toMatchObject({ status: 401 });
      expect(await send(introspected, 'Bearer', opaque)).toMatchObject({ status: 401, body: { error: 'invalid_token' } });
    });
  });

  it('without dpop, refuses the DPoP scheme and bound tokens, as before', async () => {
    const url = await serve({});
    const bound = await token(url, alice);
    expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound }))).toMatchObject({ status: 401, body: { error_description: 'The Authorization header must be: Bearer <token>.' } });
    expect(await send(url, 'Bearer', bound)).toMatchObject({ status: 401, body: { error_description: 'The access token is bound to a DPoP key (cnf.jkt): this server accepts bearer tokens only.' } });
    expect((await fetch(url, { method: 'POST' })).headers.get('www-authenticate')).not.toContain('DPoP');
  });

  it('required: refuses bearer tokens, challenges with DPoP alone, and says so in the metadata', async () => {
    const url = await serve({ dpop: { required: true, algorithms: ['ES256'] } });
    const metadata = (await (await fetch(`${new URL(url).origin}/.well-known/oauth-protected-resource/mcp`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ dpop_signing_alg_values_supported: ['ES256'], dpop_bound_access_tokens_required: true });
    const bearer = await send(url, 'Bearer', await token(url, undefined));
    expect(bearer).toMatchObject({ status: 401, body: { error: 'invalid_token', error_description: 'This server accepts DPoP-bound access tokens only: present the token as Authorization: DPoP <token> with a DPoP proof (RFC 9449).' } });
    expect(bearer.challenge).toMatch(/^DPoP algs="ES256", resource_metadata="[^"]+", scope="notes:read notes:write", error="invalid_token"/);
    expect(bearer.challenge).not.toContain('Bearer');
    const bound = await token(url, alice);
    expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound }))).toMatchObject({ status: 200 });
    // An EdDSA proof is outside this server's algorithms.
    const ed = await dpopKey('EdDSA');
    const edBound = await token(url, ed);
    expect(await send(url, 'DPoP', edBound, await ed.proof({ htu: url, token: edBound }))).toMatchObject(
      proofRefused('The DPoP proof is signed with an algorithm this server does not accept (see algs in WWW-Authenticate).'),
    );
  });

  it('server nonces: a proof without the nonce gets use_dpop_nonce and a DPoP-Nonce, and the retry with it is served', async () => {
    const url = await serve({ dpop: { nonce: { secret: 'a-secret-of-at-least-thirty-two-characters' } } });
    const bound = await token(url, alice);
    const first = await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound }));
    expect(first).toMatchObject(proofRefused('This server requires a nonce in the DPoP proof: use the one in the DPoP-Nonce header.', 'use_dpop_nonce'));
    expect(first.challenge).toMatch(/^DPoP algs="[^"]+", resource_metadata="[^"]+", scope="[^"]+", error="use_dpop_nonce"/);
    expect(first.nonce).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, nonce: first.nonce! }))).toMatchObject({ status: 200 });
    const made = await send(url, 'DPoP', bound, await alice.proof({ htu: url, token: bound, nonce: 'made-up' }));
    expect(made).toMatchObject(proofRefused('The nonce of the DPoP proof is not (or no longer) valid: use the one in the DPoP-Nonce header.', 'use_dpop_nonce'));
    expect(made.nonce).toBe(first.nonce);
    // Another instance with the same secret accepts it (nonces are derived, not stored).
    const twin = await serve({ dpop: { nonce: { secret: 'a-secret-of-at-least-thirty-two-characters' } } });
    const twinBound = await token(twin, alice);
    expect(await send(twin, 'DPoP', twinBound, await alice.proof({ htu: twin, token: twinBound, nonce: first.nonce! }))).toMatchObject({ status: 200 });
  });

  it("bounds the replay cache per key and in all: a flood of one key's proofs never evicts another key's, it is refused", async () => {
    const url = await serve({ dpop: { maxProofsPerKey: 5, maxProofs: 8 } });
    const [aliceToken, malloryToken] = await Promise.all([token(url, alice), token(url, mallory)]);
    const kept = await alice.proof({ htu: url, token: aliceToken });
    expect(await send(url, 'DPoP', aliceToken, kept)).toMatchObject({ status: 200 });
    // Mallory floods with distinct jtis: its first five are remembered, then its own requests are refused (429).
    const flood = [];
    for (let i = 0; i < 12; i++) flood.push((await send(url, 'DPoP', malloryToken, await mallory.proof({ htu: url, token: malloryToken }))).status);
    expect(flood).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
    // Alice's proof is still remembered: its replay is refused, and Alice is still served.
    expect(await send(url, 'DPoP', aliceToken, kept)).toMatchObject(proofRefused('The DPoP proof was used before (jti): make a new proof for each request.'));
    expect(await send(url, 'DPoP', aliceToken, await alice.proof({ htu: url, token: aliceToken }))).toMatchObject({ status: 200 });
    // In all (8): Alice's third proof fits, then no one's does (503) — nothing remembered is dropped before it ages out.
    expect(await send(url, 'DPoP', aliceToken, await alice.proof({ htu: url, token: aliceToken }))).toMatchObject({ status: 200 });
    const third = await dpopKey();
    const thirdToken = await token(url, third);
    expect(await send(url, 'DPoP', thirdToken, await third.proof({ htu: url, token: thirdToken }))).toMatchObject({ status: 503, body: { error: 'temporarily_unavailable' } });
    expect(await send(url, 'DPoP', aliceToken, kept)).toMatchObject({ status: 401 });
  });

  it.each([
    [{ algorithms: ['HS256', 'none'] }, 'Cannot serve with these auth options: dpop.algorithms HS256, none cannot be accepted: proofs are signed with asymmetric keys only (RFC 9449 §11.6).\nFix: choose among ES256, ES384, ES512, PS256, PS384, PS512, RS256, RS384, RS512, EdDSA, Ed25519.'],
    [{ maxAgeSeconds: 3600 }, 'Cannot serve with these auth options: dpop.maxAgeSeconds must be a whole number of seconds from 1 to 600 (got 3600).\nFix: dpop: { maxAgeSeconds: 60 } (a proof is made for each request: it needs to live only as long as the request takes to arrive).'],
    [{ maxProofsPerKey: 0 }, 'Cannot serve with these auth options: dpop.maxProofsPerKey must be a positive whole number (got 0).\nFix: leave it out (default 1000).'],
    [{ nonce: { secret: 'short' } }, 'Cannot serve with these auth options: dpop.nonce.secret must be a string of at least 32 characters.\nFix: generate one (e.g. openssl rand -base64 32) and give the same to every instance.'],
    [{ nonce: { lifetimeSeconds: 1 } }, 'Cannot serve with these auth options: dpop.nonce.lifetimeSeconds must be a whole number from 10 to 86400 (got 1).\nFix: leave it out (default 300).'],
  ])('refuses to start with dpop %j', async (dpop, message) => {
    const app = await McpFactory.create(NotesAuthModule);
    apps.push(app);
    await expect(app.listen({ transport: 'http', port: 0, auth: { issuer: local.issuer('/idp'), dpop: dpop as AuthOptions['dpop'] } })).rejects.toMatchObject({ code: BootstrapErrorCode.InvalidAuthOptions, message });
  });
});
