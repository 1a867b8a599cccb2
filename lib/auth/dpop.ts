import { loadDependency } from '../runtime/peer';
import { BootstrapError, BootstrapErrorCode, InvalidTokenError } from '../errors';
import type { DpopNonceOptions, DpopOptions, McpAuth } from '../interfaces';
import { DPOP_MAX_PROOFS, DPOP_MAX_PROOFS_PER_KEY, MAX_JTI_LENGTH, ReplayCache } from './dpop-replay';

type Jose = typeof import('jose', { with: { 'resolution-mode': 'import' } });

/** Asymmetric proof signatures only (RFC 9449 §11.6): never `none`, never HMAC. */
export const DPOP_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512', 'EdDSA', 'Ed25519'] as const;
/** The longest `DPoP` header read (an RSA-4096 key makes a proof of ~1.5 KiB). */
export const MAX_PROOF_LENGTH = 8_192;
const DEFAULT_MAX_AGE = 60;
const MAX_MAX_AGE = 600;
const DEFAULT_NONCE_LIFETIME = 300;

/** RFC 9449 §7.1 / §9: a proof refused (`invalid_dpop_proof`), or one that must carry a fresh server nonce (`use_dpop_nonce`). */
export class DpopProofError extends InvalidTokenError {
  constructor(
    message: string,
    readonly error: 'invalid_dpop_proof' | 'use_dpop_nonce' = 'invalid_dpop_proof',
    /** The nonce to use (sent as `DPoP-Nonce`). */
    readonly nonce?: string,
  ) {
    super(message);
  }
}

/** The replay cache has no room for a proof: of its key (429) or of anyone (503); the client retries shortly. */
export class DpopBusyError extends InvalidTokenError {
  constructor(readonly status: 429 | 503) {
    super(
      status === 429
        ? 'Too many DPoP proofs with this key lately: retry shortly.'
        : 'Too many DPoP proofs are being checked right now: retry shortly.',
    );
  }
}

/** The key of a DPoP-bound token (`cnf.jkt`), null for a token bound to an unnamed key, undefined for a bearer token. */
export function boundKey(claims: Readonly<Record<string, unknown>>): string | null | undefined {
  const cnf = claims.cnf;
  const jkt = cnf !== null && typeof cnf === 'object' ? (cnf as Record<string, unknown>).jkt : undefined;
  if (typeof jkt === 'string' && jkt !== '') return jkt;
  if (jkt !== undefined) return null;
  // An introspection answer that says DPoP without naming the key (RFC 9449 §6.2 asks for cnf.jkt).
  return typeof claims.token_type === 'string' && claims.token_type.toLowerCase() === 'dpop' ? null : undefined;
}

/**
 * Checks DPoP proofs (RFC 9449 §4.3, §7.1): `typ: dpop+jwt`, an accepted asymmetric `alg`, a public `jwk` that
 * verifies the signature, `htm` and `htu` of this request, a recent `iat`, the server's nonce when configured,
 * `ath` of the token, and the token's `cnf.jkt` as the key's thumbprint; then that its `jti` was not seen before.
 */
export class DpopVerifier {
  readonly required: boolean;
  readonly algorithms: readonly string[];
  private readonly maxAge: number;
  private readonly replays: ReplayCache;
  private readonly nonces?: Nonces;
  private readonly resource: URL;
  private jose?: Jose;

  constructor(
    options: DpopOptions,
    resource: string,
    private readonly tolerance: number,
  ) {
    checkDpopOptions(options);
    this.required = options.required === true;
    this.algorithms = [...(options.algorithms ?? DPOP_ALGORITHMS)];
    this.maxAge = options.maxAgeSeconds ?? DEFAULT_MAX_AGE;
    this.replays = new ReplayCache(options.maxProofs ?? DPOP_MAX_PROOFS, options.maxProofsPerKey ?? DPOP_MAX_PROOFS_PER_KEY);
    if (options.nonce) this.nonces = new Nonces(options.nonce === true ? {} : options.nonce);
    this.resource = new URL(resource);
  }

  /**
   * The proof of `request`, checked before the token is (its signature, claims and nonce): the proof's key
   * thumbprint, and what is left to check once the token is verified.
   */
  async proofOf(request: Request): Promise<Proof> {
    const header = request.headers.get('dpop');
    if (!header) throw new DpopProofError('A DPoP proof is required with Authorization: DPoP: send it in the DPoP header.');
    // Two DPoP headers read as one joined by a comma, which no JWT holds.
    if (header.includes(',')) throw new DpopProofError('Send exactly one DPoP proof.');
    if (header.length > MAX_PROOF_LENGTH) throw new DpopProofError(`The DPoP proof is too large (over ${MAX_PROOF_LENGTH} characters).`);
    const jose = (this.jose ??= loadDependency<Jose>('jose', { feature: 'verifying DPoP proofs (auth.dpop)' }, () => require('jose')));
    let verified: Awaited<ReturnType<Jose['jwtVerify']>>;
    try {
      verified = await jose.jwtVerify(header.trim(), jose.EmbeddedJWK, { typ: 'dpop+jwt', algorithms: [...this.algorithms] });
    } catch (error) {
      throw new DpopProofError(proofRejection(error));
    }
    const { payload, protectedHeader } = verified;
    const jti = payload.jti;
    if (typeof jti !== 'string' || jti === '' || jti.length > MAX_JTI_LENGTH) throw new DpopProofError(`The DPoP proof needs a jti of 1 to ${MAX_JTI_LENGTH} characters.`);
    if (payload.htm !== request.method) throw new DpopProofError(`The DPoP proof is for another method (htm must be ${request.method}).`);
    if (!this.htuMatches(payload.htu, request)) throw new DpopProofError('The DPoP proof is for another URL (htu must be the URL of this request, without query or fragment).');
    const iat = payload.iat;
    const now = Date.now() / 1000;
    if (typeof iat !== 'number' || !Number.isFinite(iat)) throw new DpopProofError('The DPoP proof needs an iat (when it was made).');
    if (iat > now + this.tolerance) throw new DpopProofError('The DPoP proof is made in the future (iat): check the clock.');
    if (iat < now - this.maxAge - this.tolerance) {
      throw new DpopProofError(`The DPoP proof is too old (iat more than ${this.maxAge} seconds ago): make a new proof for each request.`);
    }
    if (this.nonces) await this.nonces.check(payload.nonce);
    const thumbprint = await jose.calculateJwkThumbprint(protectedHeader.jwk as Parameters<Jose['calculateJwkThumbprint']>[0], 'sha256');
    return { thumbprint, jti, until: (iat + this.maxAge + this.tolerance) * 1000, ath: payload.ath };
  }

  /** The proof against the verified token: bound to its key, made for it (`ath`), and never seen before. */
  async bind(proof: Proof, token: string, auth: McpAuth): Promise<void> {
    const jkt = boundKey(auth.claims);
    if (jkt === undefined) throw new InvalidTokenError('The access token is not bound to a DPoP key: present it as Authorization: Bearer <token>.');
    if (jkt !== proof.thumbprint) throw new DpopProofError('The DPoP proof is signed with another key than the one the access token is bound to (cnf.jkt).');
    if (proof.ath !== (await sha256(token))) throw new DpopProofError('The DPoP proof is for another access token (ath must be the SHA-256 of this token).');
    const recorded = this.replays.record(proof.thumbprint, proof.jti, proof.until);
    if (recorded === 'replayed') throw new DpopProofError('The DPoP proof was used before (jti): make a new proof for each request.');
    if (recorded === 'key-full') throw new DpopBusyError(429);
    if (recorded === 'full') throw new DpopBusyError(503);
  }

  /** A proof presented where no token is bound yet (a token request): its `jti` never accepted again. */
  spend(proof: Proof): void {
    const recorded = this.replays.record(proof.thumbprint, proof.jti, proof.until);
    if (recorded === 'replayed') throw new DpopProofError('The DPoP proof was used before (jti): make a new proof for each request.');
    if (recorded !== 'new') throw new DpopBusyError(recorded === 'key-full' ? 429 : 503);
  }

  /** The nonce to give a client now, when nonces are on. */
  nonce(): Promise<string> | undefined {
    return this.nonces?.current();
  }

  /**
   * RFC 9449 §4.3: `htu` is this request's URL without query and fragment. The scheme and host are the
   * resource's (behind a TLS-terminating proxy the request reads `http:`, and no Host header is trusted); the path
   * is the request's, or the resource's own (a proxy or mount that rewrites the path).
   */
  private htuMatches(htu: unknown, request: Request): boolean {
    if (typeof htu !== 'string' || htu.length > 4_096 || !URL.canParse(htu)) return false;
    const given = new URL(htu);
    given.search = '';
    given.hash = '';
    const expected = new URL(new URL(request.url).pathname, this.resource.origin);
    const resource = new URL(this.resource);
    resource.search = '';
    resource.hash = '';
    return given.href === expected.href || given.href === resource.href;
  }
}

/** What a checked proof leaves to check against the token. */
export interface Proof {
  readonly thumbprint: string;
  readonly jti: string;
  /** Until when (epoch ms) the proof would be accepted: how long its jti is remembered. */
  readonly until: number;
  readonly ath: unknown;
}

/**
 * Server nonces (RFC 9449 §9): an HMAC of the time period under a secret, so that they need no storage and
 * instances sharing the secret accept each other's. The current and the previous period's nonces are accepted.
 */
class Nonces {
  private readonly key: ReturnType<typeof crypto.subtle.importKey>;
  private readonly lifetime: number;
  private readonly made = new Map<number, Promise<string>>();

  constructor(options: DpopNonceOptions) {
    this.lifetime = (options.lifetimeSeconds ?? DEFAULT_NONCE_LIFETIME) * 1000;
    const secret = options.secret !== undefined ? new TextEncoder().encode(options.secret) : crypto.getRandomValues(new Uint8Array(32));
    this.key = crypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  }

  current(): Promise<string> {
    return this.at(Math.floor(Date.now() / this.lifetime));
  }

  async check(nonce: unknown): Promise<void> {
    const period = Math.floor(Date.now() / this.lifetime);
    if (typeof nonce === 'string' && (nonce === (await this.at(period)) || nonce === (await this.at(period - 1)))) return;
    const fresh = await this.at(period);
    throw new DpopProofError(
      nonce === undefined ? 'This server requires a nonce in the DPoP proof: use the one in the DPoP-Nonce header.' : 'The nonce of the DPoP proof is not (or no longer) valid: use the one in the DPoP-Nonce header.',
      'use_dpop_nonce',
      fresh,
    );
  }

  private at(period: number): Promise<string> {
    let found = this.made.get(period);
    if (!found) {
      found = this.key.then((key) => crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`dpop-nonce:${period}`))).then((mac) => base64url(new Uint8Array(mac)));
      this.made.set(period, found);
      // Only the current period and the one before are asked for.
      for (const old of this.made.keys()) if (old < period - 1) this.made.delete(old);
    }
    return found;
  }
}

async function sha256(text: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** What a client is told of a proof jose refused. */
function proofRejection(error: unknown): string {
  const { code, claim, message } = (error ?? {}) as { code?: string; claim?: string; message?: string };
  switch (code) {
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'The DPoP proof is signed with an algorithm this server does not accept (see algs in WWW-Authenticate).';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'The DPoP proof\'s signature is invalid.';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      return claim === 'typ' ? 'The DPoP proof must be typed dpop+jwt.' : `The DPoP proof's ${claim ?? 'claims'} claim is invalid.`;
    case 'ERR_JWT_EXPIRED':
      return 'The DPoP proof has expired.';
    case 'ERR_JWS_INVALID':
      if (/public key/.test(message ?? '')) return 'The jwk of the DPoP proof must be a public key.';
      if (/jwk/i.test(message ?? '')) return 'The DPoP proof needs a valid jwk header (the public key that signed it).';
      return 'The DPoP proof is malformed: expected a JWT signed with the key in its jwk header.';
    default:
      return 'The DPoP proof is malformed: expected a JWT signed with the key in its jwk header.';
  }
}

function checkDpopOptions(options: DpopOptions): void {
  const fail = (cause: string, fix: string) => {
    throw new BootstrapError(BootstrapErrorCode.InvalidAuthOptions, `Cannot serve with these auth options: ${cause}\nFix: ${fix}`);
  };
  const weak = (options.algorithms ?? []).filter((alg) => !(DPOP_ALGORITHMS as readonly string[]).includes(alg));
  if (weak.length > 0 || options.algorithms?.length === 0) {
    fail(`dpop.algorithms ${weak.join(', ') || '(none)'} cannot be accepted: proofs are signed with asymmetric keys only (RFC 9449 §11.6).`, `choose among ${DPOP_ALGORITHMS.join(', ')}.`);
  }
  const age = options.maxAgeSeconds;
  if (age !== undefined && !(Number.isInteger(age) && age >= 1 && age <= MAX_MAX_AGE)) {
    fail(`dpop.maxAgeSeconds must be a whole number of seconds from 1 to ${MAX_MAX_AGE} (got ${String(age)}).`, `dpop: { maxAgeSeconds: ${DEFAULT_MAX_AGE} } (a proof is made for each request: it needs to live only as long as the request takes to arrive).`);
  }
  for (const [name, value] of [['maxProofs', options.maxProofs], ['maxProofsPerKey', options.maxProofsPerKey]] as const) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1)) fail(`dpop.${name} must be a positive whole number (got ${String(value)}).`, `leave it out (default ${name === 'maxProofs' ? DPOP_MAX_PROOFS : DPOP_MAX_PROOFS_PER_KEY}).`);
  }
  const nonce = typeof options.nonce === 'object' ? options.nonce : undefined;
  if (nonce?.secret !== undefined && (typeof nonce.secret !== 'string' || nonce.secret.length < 32)) {
    fail('dpop.nonce.secret must be a string of at least 32 characters.', 'generate one (e.g. openssl rand -base64 32) and give the same to every instance.');
  }
  const lifetime = nonce?.lifetimeSeconds;
  if (lifetime !== undefined && !(Number.isInteger(lifetime) && lifetime >= 10 && lifetime <= 86_400)) {
    fail(`dpop.nonce.lifetimeSeconds must be a whole number from 10 to 86400 (got ${String(lifetime)}).`, `leave it out (default ${DEFAULT_NONCE_LIFETIME}).`);
  }
}
