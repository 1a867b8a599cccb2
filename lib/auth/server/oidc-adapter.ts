import type { AuthStore } from '../../interfaces';
import type { PeerRealmCopy } from '../../runtime/peer-realm';

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

/** A client that completed a grant lives this long (oidc-provider gives registered clients no lifetime). */
const CLIENT_TTL = 90 * 86_400;

/**
 * Models anyone can make before signing in: kept under `anon:` (./auth-stores.ts keeps them apart from signed-in
 * users' state) for at most `anonymousTtl`. A registered client joins the others when a grant is made for it.
 */
const ANONYMOUS_MODELS = new Set(['Client', 'Interaction', 'PushedAuthorizationRequest']);

/**
 * The adapter oidc-provider keeps its models with (clients, grants, codes, tokens, sessions, interactions):
 * `oidc:<model>:<id>` → payload, plus an index of each grant's tokens (revoked together: a replayed code or a
 * reused refresh token ends the whole grant) and of interactions by uid. Payloads found go back in the provider's
 * realm (`toProvider`, ../../runtime/peer-realm.ts).
 */
export function oidcAdapter(store: AuthStore, anonymousTtl: number, toProvider: PeerRealmCopy, machines: ReadonlyMap<string, Payload> = new Map()): OidcAdapterClass {
  /** A client registered anonymously: now kept as long as signed-in users' state. */
  async function promote(clientId: string): Promise<void> {
    const raw = await store.get(`anon:oidc:Client:${clientId}`);
    if (raw === undefined) return;
    const entry = JSON.parse(raw) as { payload: Payload };
    await store.set(`oidc:Client:${clientId}`, JSON.stringify({ payload: entry.payload, expiresAt: Date.now() + CLIENT_TTL * 1000 }), CLIENT_TTL);
    await store.delete(`anon:oidc:Client:${clientId}`);
  }

  return class StoreAdapter {
    private readonly anonymous: boolean;

    constructor(private readonly model: string) {
      this.anonymous = ANONYMOUS_MODELS.has(model);
    }

    private key(id: string, anonymous = this.anonymous): string {
      return `${anonymous ? 'anon:' : ''}oidc:${this.model}:${id}`;
    }

    async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
      const given = expiresIn && expiresIn > 0 ? expiresIn : undefined;
      // A machine client was registered with the operator's initial access token (./machine-clients.ts): it makes
      // no grant, and is kept as signed-in users' state is.
      const anonymous = this.anonymous && !(this.model === 'Client' && isMachineClient(payload));
      const ttl = anonymous ? Math.min(given ?? anonymousTtl, anonymousTtl) : (given ?? CLIENT_TTL);
      // The payload's own expiry is kept: a consumed code set again keeps its remaining lifetime.
      await store.set(this.key(id, anonymous), JSON.stringify({ payload, expiresAt: Date.now() + ttl * 1000 }), ttl);
      if (typeof payload.grantId === 'string') await store.add(`oidc:grant:${payload.grantId}`, this.key(id), ttl);
      if (typeof payload.uid === 'string') await store.set(`${this.anonymous ? 'anon:' : ''}oidc:uid:${payload.uid}`, id, ttl);
      if (this.model === 'Grant' && typeof payload.clientId === 'string') await promote(payload.clientId);
    }

    async find(id: string): Promise<Payload | undefined> {
      // The machine clients the options name (a copy: oidc-provider keeps what it is given).
      const machine = this.model === 'Client' ? machines.get(id) : undefined;
      if (machine) return toProvider(JSON.parse(JSON.stringify(machine)) as Payload);
      let raw = await store.get(this.key(id));
      // A client that completed a grant is kept with signed-in users' state.
      if (raw === undefined && this.model === 'Client') raw = await store.get(`oidc:Client:${id}`);
      return raw === undefined ? undefined : toProvider((JSON.parse(raw) as { payload: Payload }).payload);
    }

    async findByUid(uid: string): Promise<Payload | undefined> {
      const id = await store.get(`${this.anonymous ? 'anon:' : ''}oidc:uid:${uid}`);
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
      if (this.model === 'Client') await store.delete(`oidc:Client:${id}`);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      const keys = await store.members(`oidc:grant:${grantId}`);
      await Promise.all(keys.map((key) => store.delete(key)));
      await store.delete(`oidc:grant:${grantId}`);
    }
  };
}

function isMachineClient(payload: Payload): boolean {
  return Array.isArray(payload.grant_types) && payload.grant_types.includes('client_credentials');
}
