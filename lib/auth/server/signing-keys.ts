import { generateKeyPairSync, randomBytes } from 'node:crypto';

/** An ES256 signing key made at start (keys.signing not given): it dies with the process. */
export function generatedKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return { ...privateKey.export({ format: 'jwk' }), kid: randomBytes(8).toString('base64url'), alg: 'ES256', use: 'sig' };
}

/** A JWK without its private members: what the JWKS publishes and the resource server verifies with. */
export function publicPart(jwk: Record<string, unknown>): Record<string, unknown> {
  const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...rest } = jwk;
  return rest;
}

