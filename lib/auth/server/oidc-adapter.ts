import type { AuthStore } from '../../interfaces';

type Payload = Record<string, unknown>;

/** oidc-provider's storage contract (its docs/README "adapter"), on an AuthStore: one class per model. */
export type OidcAdapterClass = new (model: string) => {
  upsert(id: string, payload: Payload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<Payload | undefined>;
  findByUid(uid: string): Promise<Payload | undefined>;
  findByUserCode(userCode: string): Promise<Payload | undefined>;
  consume(id: string): Promise<void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
};

/** Entries without a lifetime (oidc-provider gives none for registered clients) live this long. */
const DEFAULT_TTL = 90 * 86_400;

/**
 * The adapter oidc-provider keeps its models with (clients, grants, codes, tokens, sessions, interactions):
 * `oidc:<model>:<id>` → payload, plus an index of each grant's tokens (revoked together: a replayed code or a
 * reused refresh token ends the whole grant) and of interactions by uid.
 */
export function oidcAdapter(store: AuthStore): OidcAdapterClass {
  return class StoreAdapter {
    constructor(private readonly model: string) {}

    private key(id: string): string {
      return `oidc:${this.model}:${id}`;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const ttl = expiresIn && expiresIn > 0 ? expiresIn : DEFAULT_TTL;
      // The payload's own expiry is kept: a consumed code set again keeps its remaining lifetime.
      await store.set(this.key(id), JSON.stringify({ payload, expiresAt: Date.now() + ttl * 1000 }), ttl);
      if (typeof payload.grantId === 'string') await store.add(`oidc:grant:${payload.grantId}`, this.key(id), ttl);
      if (typeof payload.uid === 'string') await store.set(`oidc:uid:${payload.uid}`, id, ttl);
    }

    async find(id: string): Promise<Payload | undefined> {
      const raw = await store.get(this.key(id));
      return raw === undefined ? undefined : (JSON.parse(raw) as { payload: Payload }).payload;
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const id = await store.get(`oidc:uid:${uid}`);
      return id === undefined ? undefined : this.find(id);
    }

    async findByUserCode(): Promise<Payload | undefined> {
      return undefined; // the device flow is off
    }

    async consume(id: string): Promise<void> {
      const raw = await store.get(this.key(id));
      if (raw === undefined) return;
      const entry = JSON.parse(raw) as { payload: Payload; expiresAt: number };
      entry.payload.consumed = Math.floor(Date.now() / 1000);
      await store.set(this.key(id), JSON.stringify(entry), Math.max(1, (entry.expiresAt - Date.now()) / 1000));
    }

    async destroy(id: string): Promise<void> {
      await store.delete(this.key(id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const keys = await store.members(`oidc:grant:${grantId}`);
      await Promise.all(keys.map((key) => store.delete(key)));
      await store.delete(`oidc:grant:${grantId}`);
    }
  };
}
