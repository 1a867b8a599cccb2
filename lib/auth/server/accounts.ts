import { createHmac } from 'node:crypto';
import type { UpstreamIdentity } from '../../interfaces';

/** A user signed in through the upstream provider: who, and their upstream tokens (sealed). */
export interface Account {
  readonly identity: UpstreamIdentity;
  readonly upstream?: string;
  /** The enterprise IdP that vouched for the user with an ID-JAG (./identity-assertion.ts); else the upstream's. */
  readonly idp?: string;
}

export function rememberKey(accountId: string, clientId: string): string {
  return `consent:${createHmac('sha256', 'consent').update(`${accountId}\n${clientId}`).digest('base64url')}`;
}

export function identityClaims(identity: UpstreamIdentity): Record<string, unknown> {
  return {
    ...(identity.email !== undefined ? { email: identity.email } : {}),
    ...(identity.name !== undefined ? { name: identity.name } : {}),
    ...(identity.username !== undefined ? { preferred_username: identity.username } : {}),
    ...(identity.groups !== undefined ? { groups: [...identity.groups] } : {}),
  };
}
