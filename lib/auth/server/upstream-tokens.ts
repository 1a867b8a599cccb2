import type { AuthStore, UpstreamTokens } from '../../interfaces';
import type { ServerLogger } from '../../interfaces';
import type { Account } from './accounts';
import type { TokenSealer } from './sealed-tokens';
import type { UpstreamLogin } from './upstream-login';

/** An upstream access token this close to its expiry is refreshed before it is handed out. */
const MARGIN_SECONDS = 5;
/** How long another instance's refresh of the same user's tokens is waited for. */
const WAIT_MS = 5_000;

/**
 * The users' upstream tokens, sealed in their accounts (AES-256-GCM, bound to the subject): handed to tools by
 * `ctx.upstreamTokens()`, an expired access token refreshed first with the upstream refresh token — once per user
 * at a time: callers in this process share one refresh, and an instance that sees another's refresh under way
 * (a marker in the shared store) waits for its result instead of spending the refresh token a second time.
 */
export class UpstreamTokenKeeper {
  private readonly refreshing = new Map<string, Promise<UpstreamTokens | undefined>>();

  constructor(
    private readonly store: AuthStore,
    private readonly sealer: TokenSealer,
    private readonly login: UpstreamLogin,
    private readonly accounts: { account(sub: string): Promise<Account | undefined>; ttl: number },
    private readonly logger: ServerLogger,
  ) {}

  seal(sub: string, tokens: UpstreamTokens): string {
    return this.sealer.seal(JSON.stringify(tokens), `upstream:${sub}`);
  }

  async of(sub: string): Promise<UpstreamTokens | undefined> {
    const tokens = await this.read(sub);
    if (!tokens || !expiring(tokens)) return tokens;
    if (!tokens.refreshToken) return undefined;
    let running = this.refreshing.get(sub);
    if (!running) {
      running = this.refresh(sub, tokens.refreshToken).finally(() => this.refreshing.delete(sub));
      this.refreshing.set(sub, running);
    }
    return running;
  }

  private async read(sub: string): Promise<UpstreamTokens | undefined> {
    const sealed = (await this.accounts.account(sub))?.upstream;
    const plain = sealed === undefined ? undefined : this.sealer.open(sealed, `upstream:${sub}`);
    return plain === undefined ? undefined : (JSON.parse(plain) as UpstreamTokens);
  }

  private async refresh(sub: string, refreshToken: string): Promise<UpstreamTokens | undefined> {
    const marker = `upstream-refresh:${sub}`;
    const mine = this.store.increment ? (await this.store.increment(marker, 1, Math.ceil(WAIT_MS / 1000))) === 1 : true;
    if (!mine) return this.awaitOthers(sub);
    try {
      const fresh = await this.login.refresh(refreshToken);
      const account = await this.accounts.account(sub);
      if (!account) return undefined;
      await this.store.set(`account:${sub}`, JSON.stringify({ ...account, upstream: this.seal(sub, fresh) } satisfies Account), this.accounts.ttl);
      return fresh;
    } catch (error) {
      // The user must sign in again to give the tool an upstream token: none, rather than a dead one.
      this.logger.warn(`auth server: refreshing a user's upstream token failed: ${error instanceof Error ? error.message : String(error)}`);
      return undefined;
    } finally {
      if (this.store.increment) await this.store.delete(marker).catch(() => undefined);
    }
  }

  /** Another instance refreshes this user's tokens: its result, read back, once it is there. */
  private async awaitOthers(sub: string): Promise<UpstreamTokens | undefined> {
    for (let waited = 0; waited < WAIT_MS; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const tokens = await this.read(sub);
      if (tokens && !expiring(tokens)) return tokens;
    }
    return undefined;
  }
}

function expiring(tokens: UpstreamTokens): boolean {
  return tokens.expiresAt !== undefined && tokens.expiresAt <= Date.now() / 1000 + MARGIN_SECONDS;
}
