import type { AuthStore } from '../../interfaces';
import type { OidcProvider } from './oidc-provider.types';
import { escapeHtml, pageHtml, PAGE_HEADERS } from './pages';

/** The koa context oidc-provider gives its page hooks (the part used here). */
interface PageContext {
  body: unknown;
  set(headers: Record<string, string>): void;
  oidc: { session?: { accountId?: string } };
}

/** Where a user's remembered consents are listed, so that logging out forgets them all. */
export const consentsOf = (accountId: string) => `consents:${accountId}`;

/**
 * Logout (`/oauth/logout`, OpenID RP-Initiated Logout): a page asks the user to confirm; confirmed, the login
 * session ends (oidc-provider), and with it every consent this server remembered for the user — the grants those
 * consents named are revoked, so their tokens are refused at once and the next sign-in asks again.
 */
export class Logout {
  constructor(
    private readonly store: AuthStore,
    private readonly revoke: (grantId: string) => Promise<void>,
  ) {}

  /** oidc-provider's `features.rpInitiatedLogout`. */
  feature(): Record<string, unknown> {
    return {
      enabled: true,
      logoutSource: (ctx: PageContext, form: string) => {
        ctx.set({ ...PAGE_HEADERS });
        ctx.body = pageHtml(
          'Sign out?',
          `<h1>Sign out of this server?</h1><p>Applications you allowed will have to ask you again.</p>${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes" id="logout">Sign out</button>
<button type="submit" form="op.logoutForm" id="stay">Stay signed in</button>`,
        );
      },
      postLogoutSuccessSource: (ctx: PageContext) => {
        ctx.set({ ...PAGE_HEADERS });
        ctx.body = pageHtml('Signed out', `<h1>You are signed out</h1><p role="status">${escapeHtml('You can close this page.')}</p>`);
      },
    };
  }

  /** Listens for ended sessions on `provider`. */
  attach(provider: OidcProvider, warn: (message: string) => void): void {
    provider.on('end_session.success', (ctx: unknown) => {
      const accountId = (ctx as PageContext).oidc.session?.accountId;
      if (accountId) this.forget(accountId).catch((error: unknown) => warn(`auth server: logout of a user not completed: ${error instanceof Error ? error.message : String(error)}`));
    });
  }

  /** Notes a remembered consent of `accountId`, to forget at logout. */
  async remembered(accountId: string, key: string, ttlSeconds: number): Promise<void> {
    await this.store.add(consentsOf(accountId), key, ttlSeconds);
  }

  private async forget(accountId: string): Promise<void> {
    const keys = await this.store.members(consentsOf(accountId));
    const grants = await Promise.all(keys.map((key) => this.store.get(key)));
    await Promise.all(keys.map((key) => this.store.delete(key)));
    await this.store.delete(consentsOf(accountId));
    await Promise.all(grants.filter((grantId): grantId is string => grantId !== undefined).map((grantId) => this.revoke(grantId)));
  }
}
