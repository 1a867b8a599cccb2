import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** AES-256-GCM: a 12-byte nonce, the ciphertext and its 16-byte tag, as base64url; `aad` binds it to its key. */
export class TokenSealer {
  private readonly key: Buffer;

  /** `key`: 32 bytes as base64 or base64url (undefined: a random key, for one instance that keeps nothing across restarts). */
  constructor(key: string | undefined) {
    this.key = key === undefined ? randomBytes(32) : Buffer.from(key, 'base64url');
    if (this.key.length !== 32) throw new Error(`keys.upstreamTokens must be 32 bytes in base64 (got ${this.key.length} bytes).`);
  }

  seal(plain: string, aad: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, nonce);
    cipher.setAAD(Buffer.from(aad));
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([nonce, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The plain text, or undefined when the sealed text was altered, sealed with another key or for another `aad`. */
  open(sealed: string, aad: string): string | undefined {
    const bytes = Buffer.from(sealed, 'base64url');
    if (bytes.length < 28) return undefined;
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, bytes.subarray(0, 12));
      decipher.setAAD(Buffer.from(aad));
      decipher.setAuthTag(bytes.subarray(bytes.length - 16));
      return Buffer.concat([decipher.update(bytes.subarray(12, bytes.length - 16)), decipher.final()]).toString('utf8');
    } catch {
      return undefined;
    }
  }
}
