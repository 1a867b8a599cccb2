import { createHash, randomUUID } from 'node:crypto';
import * as jose from 'jose';
import { initializeBody, JSON_AND_SSE } from '../support/http-helpers';

/** A client's DPoP key (jose), and proofs made with it (RFC 9449 §4.2), any claim or header overridable. */
export interface DpopKey {
  readonly jkt: string;
  readonly publicJwk: jose.JWK;
  proof(options: ProofOptions): Promise<string>;
}

export interface ProofOptions {
  readonly htu: string;
  readonly htm?: string;
  /** The token the proof is for (`ath`); undefined leaves ath out. */
  readonly token?: string;
  readonly iat?: number;
  readonly jti?: string;
  readonly nonce?: string;
  /** Replaces claims (undefined removes one). */
  readonly claims?: Record<string, unknown>;
  /** Replaces header parameters (undefined removes one). */
  readonly header?: Record<string, unknown>;
}

export const now = () => Math.floor(Date.now() / 1000);
export const ath = (token: string) => createHash('sha256').update(token).digest('base64url');

export async function dpopKey(alg: 'ES256' | 'EdDSA' | 'RS256' = 'ES256'): Promise<DpopKey & { privateJwk: jose.JWK }> {
  const { privateKey, publicKey } = await jose.generateKeyPair(alg, { extractable: true });
  const publicJwk = await jose.exportJWK(publicKey);
  const privateJwk = await jose.exportJWK(privateKey);
  return {
    jkt: await jose.calculateJwkThumbprint(publicJwk),
    publicJwk,
    privateJwk,
    async proof(options) {
      const claims: Record<string, unknown> = {
        htm: options.htm ?? 'POST',
        htu: options.htu,
        iat: options.iat ?? now(),
        jti: options.jti ?? randomUUID(),
        ...(options.token !== undefined ? { ath: ath(options.token) } : {}),
        ...(options.nonce !== undefined ? { nonce: options.nonce } : {}),
        ...options.claims,
      };
      const header: Record<string, unknown> = { typ: 'dpop+jwt', alg, jwk: publicJwk, ...options.header };
      for (const record of [claims, header]) for (const key of Object.keys(record)) if (record[key] === undefined) delete record[key];
      return new jose.SignJWT(claims).setProtectedHeader(header as jose.JWTHeaderParameters).sign(privateKey);
    },
  };
}

export interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly challenge: string | null;
  readonly nonce: string | null;
}

/** An `initialize` POST with `Authorization: <scheme> <token>` and, when given, a `DPoP` header; the answer. */
export async function send(url: string, scheme: 'Bearer' | 'DPoP', token: string, proof?: string | string[], method = 'POST'): Promise<Answer> {
  const headers = new Headers({ ...JSON_AND_SSE, authorization: `${scheme} ${token}` });
  for (const one of typeof proof === 'string' ? [proof] : (proof ?? [])) headers.append('dpop', one);
  const response = await fetch(url, { method, headers, ...(method === 'POST' ? { body: initializeBody() } : {}) });
  const text = await response.text();
  let body: Record<string, unknown>;
  try {
    body = response.status === 200 ? { ok: true } : (JSON.parse(text) as Record<string, unknown>);
  } catch {
    body = { text };
  }
  return { status: response.status, body, challenge: response.headers.get('www-authenticate'), nonce: response.headers.get('dpop-nonce') };
}

/** What a refusal of a proof looks like: 401, `invalid_dpop_proof` (or `error`), the description in body and challenge. */
export function proofRefused(description: string, error = 'invalid_dpop_proof'): Partial<Answer> {
  return { status: 401, body: { error, error_description: description } };
}

type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/**
 * A client's fetch presenting `token()` as `Authorization: DPoP` with a fresh proof of `key` for each request (its
 * method and URL, or the public URL `htuOf` makes of it), retrying once with the server's nonce after `use_dpop_nonce` (RFC 9449 §7.1, §9) — what the
 * SDK's `withDpop` does, with a jose key (the SDK's loads jose by a dynamic import, which jest's CommonJS cannot).
 */
export function dpopFetch(key: DpopKey, token: () => string, next: FetchLike = fetch, htuOf: (url: URL) => string = (url) => `${url.origin}${url.pathname}`): FetchLike & { readonly nonces: string[] } {
  const nonces: string[] = [];
  const send = async (input: string | URL | Request, init: RequestInit | undefined, nonce: string | undefined) => {
    const headers = new Headers(init?.headers);
    const method = (init?.method ?? 'GET').toUpperCase();
    const htu = new URL(String(input instanceof Request ? input.url : input));
    headers.set('authorization', `DPoP ${token()}`);
    headers.set('dpop', await key.proof({ htu: htuOf(htu), htm: method, token: token(), ...(nonce ? { nonce } : {}) }));
    return next(input, { ...init, headers });
  };
  const wrapped = async (input: string | URL | Request, init?: RequestInit) => {
    const response = await send(input, init, nonces.at(-1));
    const nonce = response.headers.get('dpop-nonce');
    if (response.status !== 401 || !nonce || !/use_dpop_nonce/.test(response.headers.get('www-authenticate') ?? '')) return response;
    nonces.push(nonce);
    await response.body?.cancel();
    return send(input, init, nonce);
  };
  return Object.assign(wrapped, { nonces });
}
