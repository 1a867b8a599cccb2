import { Authenticator } from '../../lib/auth/authenticator';
import { InvalidTokenError, type McpAuth } from '../../lib';

/**
 * The verification cache of the bearer gate (docs/auth.md#verification-caching-and-key-rotation): one verification
 * per token while it stands, shared by the requests that arrive with it meanwhile; failures never kept; a flood of
 * tokens being verified, or refused, never pushes a verified one out.
 */
const resource = 'https://mcp.example.com/mcp';
const issuer = 'https://as.example.com';

/** A verifier of our own that counts its calls: `good.*` tokens are valid for `lifetime` seconds, others refused, after `delay` ms. */
function verifier(options: { lifetime?: number; delay?: number } = {}) {
  const calls: string[] = [];
  const verify = async (token: string): Promise<McpAuth> => {
    calls.push(token);
    await new Promise((resolve) => setTimeout(resolve, options.delay ?? 0));
    if (!token.startsWith('good')) throw new InvalidTokenError('The access token was revoked.');
    const claims = { sub: token, aud: resource, iss: issuer, exp: Math.floor(Date.now() / 1000) + (options.lifetime ?? 60), scope: 'notes:read' };
    return { subject: token, clientId: 'cli', scopes: ['notes:read'], expiresAt: claims.exp, issuer, claims, token };
  };
  return { calls, verify };
}

describe('Authenticator: the verification cache', () => {
  it('verifies a token once while it stands, and the requests that arrive meanwhile share that verification', async () => {
    const { calls, verify } = verifier({ delay: 20 });
    const gate = new Authenticator({ issuer, verify }, resource);
    const first = await Promise.all([1, 2, 3].map(() => gate.authenticate('Bearer good.alice')));
    expect(first.map((auth) => auth.subject)).toEqual(['good.alice', 'good.alice', 'good.alice']);
    expect((await gate.authenticate('Bearer good.alice')).subject).toBe('good.alice');
    expect(calls).toEqual(['good.alice']);
  });

  it('never keeps a refused token: each request with it is verified again (and refused)', async () => {
    const { calls, verify } = verifier();
    const gate = new Authenticator({ issuer, verify }, resource);
    await expect(gate.authenticate('Bearer bad.mallory')).rejects.toThrow('The access token was revoked.');
    await expect(gate.authenticate('Bearer bad.mallory')).rejects.toThrow('The access token was revoked.');
    expect(calls).toEqual(['bad.mallory', 'bad.mallory']);
  });

  it('verifies a token again once its verification has expired (the token, with the clock tolerance)', async () => {
    const { calls, verify } = verifier({ lifetime: 0 });
    const gate = new Authenticator({ issuer, verify, clockToleranceSec: 1 }, resource);
    await gate.authenticate('Bearer good.bob');
    await gate.authenticate('Bearer good.bob');
    expect(calls).toEqual(['good.bob']);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    await gate.authenticate('Bearer good.bob').catch(() => undefined);
    expect(calls).toEqual(['good.bob', 'good.bob']);
  });

  it('keeps verified tokens while a flood of other tokens is verified and refused (they never push one out)', async () => {
    const { calls, verify } = verifier({ delay: 5 });
    const gate = new Authenticator({ issuer, verify, cacheSize: 10 }, resource);
    for (let i = 0; i < 10; i++) await gate.authenticate(`Bearer good.user${i}`);
    // 2,000 tokens at once (more than the 1,000 verifications shared at a time), all refused.
    const flood = await Promise.allSettled(Array.from({ length: 2_000 }, (_, i) => gate.authenticate(`Bearer bad.${i}`)));
    expect(flood.every((outcome) => outcome.status === 'rejected')).toBe(true);
    calls.length = 0;
    for (let i = 0; i < 10; i++) expect((await gate.authenticate(`Bearer good.user${i}`)).subject).toBe(`good.user${i}`);
    expect(calls).toEqual([]);
  });

  it('keeps at most cacheSize verified tokens, forgetting the least recently used first', async () => {
    const { calls, verify } = verifier();
    const gate = new Authenticator({ issuer, verify, cacheSize: 2 }, resource);
    await gate.authenticate('Bearer good.a');
    await gate.authenticate('Bearer good.b');
    await gate.authenticate('Bearer good.a'); // a is the most recently used
    await gate.authenticate('Bearer good.c'); // b goes
    calls.length = 0;
    await gate.authenticate('Bearer good.a');
    await gate.authenticate('Bearer good.c');
    expect(calls).toEqual([]);
    await gate.authenticate('Bearer good.b');
    expect(calls).toEqual(['good.b']);
  });
});
