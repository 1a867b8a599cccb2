import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthorizationServer } from './authorization-server';
import type { InteractionDetails, InteractionResult } from './oidc-provider.types';
import { consentPage, errorPage } from './pages';
import { UpstreamLoginError } from './upstream-login';

const INTERACTION = /^\/oauth\/interaction\/([A-Za-z0-9_-]{1,64})(?:\/(callback|consent))?$/;
const CALLBACK = '/oauth/callback';
/** The consent form is a few fields: more is refused unread. */
const MAX_FORM_BYTES = 4_096;
/** How long an upstream login may take (the state and PKCE verifier are kept that long). */
const LOGIN_TTL = 600;

interface PendingLogin {
  readonly uid: string;
  readonly verifier: string;
}

/**
 * The pages between the client's authorization request and its redirect back: the login (sent on to the
 * upstream provider, and its callback), then the consent page. Each step is bound to the browser that began it
 * (oidc-provider's interaction cookie); the upstream `state` names the interaction, the consent form carries
 * a CSRF token of that interaction.
 */
export class Interactions {
  constructor(private readonly server: AuthorizationServer) {}

  handles(pathname: string): boolean {
    return pathname === CALLBACK || INTERACTION.test(pathname);
  }

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<void> {
    if (pathname === CALLBACK) return this.upstreamCallback(req, res);
    const [, uid, step] = INTERACTION.exec(pathname)!;
    let details: InteractionDetails;
    try {
      details = await this.server.provider.interactionDetails(req, res);
    } catch {
      return errorPage(res, 400, 'This sign-in has expired or was started in another browser. Start again from the application.');
    }
    if (details.uid !== uid) return errorPage(res, 400, 'This sign-in belongs to another request. Start again from the application.');
    if (step === 'callback') return this.finishLogin(req, res, details);
    if (step === 'consent') return this.decide(req, res, details);
    if (req.method !== 'GET') return void res.writeHead(405, { allow: 'GET' }).end();
    if (details.prompt.name === 'login') return this.startLogin(req, res, details);
    if (details.prompt.name === 'consent') {
      const clientId = String(details.params.client_id);
      if (this.server.skipsConsent(clientId)) return this.finish(req, res, { consent: { grantId: await this.grant(details) } });
      return this.showConsent(res, details);
    }
    return this.finish(req, res, { error: 'access_denied', error_description: `Unsupported interaction ${details.prompt.name}.` });
  }

  /** Off to the upstream provider, with a state that names this interaction. */
  private async startLogin(req: IncomingMessage, res: ServerResponse, details: InteractionDetails): Promise<void> {
    const state = randomBytes(24).toString('base64url');
    let url: URL;
    let verifier: string;
    try {
      ({ url, verifier } = await this.server.upstream.start(state));
    } catch (error) {
      return this.failed(req, res, error);
    }
    await this.server.store.set(`anon:login:${state}`, JSON.stringify({ uid: details.uid, verifier } satisfies PendingLogin), LOGIN_TTL);
    res.writeHead(303, { location: url.href, 'cache-control': 'no-store' }).end();
  }

  /** The upstream provider's redirect: on to the interaction it belongs to (whose cookie is scoped to its path). */
  private async upstreamCallback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const query = new URL(req.url ?? '/', 'http://x').search;
    const state = new URLSearchParams(query).get('state');
    const pending = state ? await this.server.store.get(`anon:login:${state}`) : undefined;
    if (!pending) return errorPage(res, 400, 'This sign-in has expired or is unknown. Start again from the application.');
    const { uid } = JSON.parse(pending) as PendingLogin;
    res.writeHead(303, { location: `/oauth/interaction/${uid}/callback${query}`, 'cache-control': 'no-store' }).end();
  }

  private async finishLogin(req: IncomingMessage, res: ServerResponse, details: InteractionDetails): Promise<void> {
    const callback = new URL(req.url ?? '/', this.server.issuer);
    const state = callback.searchParams.get('state') ?? '';
    const raw = await this.server.store.get(`anon:login:${state}`);
    const pending = raw === undefined ? undefined : (JSON.parse(raw) as PendingLogin);
    if (!pending || pending.uid !== details.uid) return errorPage(res, 400, 'This sign-in has expired or is unknown. Start again from the application.');
    // One use: a replayed callback finds nothing.
    await this.server.store.delete(`anon:login:${state}`);
    try {
      const { identity, tokens } = await this.server.upstream.finish(callback, state, pending.verifier);
      await this.server.saveAccount(identity, tokens);
      return this.finish(req, res, { login: { accountId: identity.subject } });
    } catch (error) {
      return this.failed(req, res, error);
    }
  }

  /** An upstream failure: the user reads what happened on a page; its way back gives the client the standard error. */
  private async failed(req: IncomingMessage, res: ServerResponse, error: unknown): Promise<void> {
    const failure = error instanceof UpstreamLoginError ? error : new UpstreamLoginError('server_error', 'Signing in failed.');
    this.server.logger.warn(`auth server: upstream login failed: ${failure.message}`);
    const back = await this.server.provider.interactionResult(req, res, this.server.toProvider({ error: failure.error, error_description: failure.message }), this.server.toProvider({ mergeWithLastSubmission: false }));
    const status = failure.error === 'access_denied' ? 403 : failure.error === 'temporarily_unavailable' ? 503 : 502;
    return errorPage(res, status, failure.message, back);
  }

  private async showConsent(res: ServerResponse, details: InteractionDetails): Promise<void> {
    const clientId = String(details.params.client_id);
    const client = await this.server.provider.Client.find(clientId);
    const account = details.session?.accountId ? await this.server.account(details.session.accountId) : undefined;
    const identity = account?.identity;
    const redirect = typeof details.params.redirect_uri === 'string' ? details.params.redirect_uri : '';
    consentPage(res, {
      clientName: client?.clientName ?? clientId,
      clientId,
      redirectUri: redirect,
      scopes: String(details.params.scope ?? '').split(' ').filter((s) => s !== ''),
      user: identity?.email ?? identity?.username ?? identity?.name ?? identity?.subject ?? 'unknown',
      action: `/oauth/interaction/${details.uid}/consent`,
      csrf: this.server.csrf(details.uid),
    });
  }

  /** The consent form's answer: checked against its CSRF token, then the grant saved (and remembered) or refused. */
  private async decide(req: IncomingMessage, res: ServerResponse, details: InteractionDetails): Promise<void> {
    if (req.method !== 'POST' || details.prompt.name !== 'consent') return void res.writeHead(405, { allow: 'POST' }).end();
    const form = await readForm(req);
    if (!form || !this.server.csrfMatches(details.uid, form.get('csrf'))) {
      return errorPage(res, 403, 'This consent form is not the one this server showed you. Start again from the application.');
    }
    if (form.get('decision') !== 'allow') return this.finish(req, res, { error: 'access_denied', error_description: 'The user declined to authorize the application.' });
    const grantId = await this.grant(details);
    await this.server.remember(details.session!.accountId!, String(details.params.client_id), grantId);
    return this.finish(req, res, { consent: { grantId } });
  }

  /** The grant of what the client asked for (OIDC scopes and claims, the resource's scopes). */
  private async grant(details: InteractionDetails): Promise<string> {
    const { Grant } = this.server.provider;
    const grant = (details.grantId ? await Grant.find(details.grantId) : undefined) ?? new Grant(this.server.toProvider({ accountId: details.session!.accountId!, clientId: String(details.params.client_id) }));
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(' '));
    return grant.save();
  }

  private finish(req: IncomingMessage, res: ServerResponse, result: InteractionResult): Promise<void> {
    return this.server.provider.interactionFinished(req, res, this.server.toProvider(result), this.server.toProvider({ mergeWithLastSubmission: false }));
  }
}

/** A small urlencoded form body, or undefined when it is too large. */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}
