import type { ServerResponse } from 'node:http';

/** Headers of every page the authorization server shows: never framed (clickjacking), never cached, no scripts. */
export const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src https: data:; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
} as const;

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}ul{padding-left:1.2rem}button,a.button{font:inherit;padding:.5rem 1.2rem;margin-right:.5rem;border-radius:.3rem;border:1px solid #555;background:#fff;color:#1a1a1a;text-decoration:none;display:inline-block}
button[value=allow]{background:#1a56db;border-color:#1a56db;color:#fff}button:focus,a:focus{outline:3px solid #f59e0b;outline-offset:2px}code{word-break:break-all}`;

/** A whole page: `body` is HTML already escaped. */
export function page(res: ServerResponse, status: number, title: string, body: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { ...PAGE_HEADERS, ...headers });
  res.end(pageHtml(title, body));
}

/** A whole page's HTML: `body` is HTML already escaped. */
export function pageHtml(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** Control and bidirectional formatting characters: shown as U+FFFD, so that a name cannot reorder or hide what follows it. */
const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;

/** A text a client chose (its name, its redirect URI), made safe to show: no control or bidi characters, at most `max` characters. */
export function neutralize(text: string, max = 120): string {
  const plain = text.replace(INVISIBLE, '\ufffd');
  return plain.length > max ? `${plain.slice(0, max - 1)}…` : plain;
}

/** Where a redirect URI sends the user, as the consent page says it: the origin of a web URI, a native app's whole URI. */
export function destinationOf(redirectUri: string): string {
  if (!URL.canParse(redirectUri)) return neutralize(redirectUri || 'an unknown address');
  const url = new URL(redirectUri);
  return neutralize(url.protocol === 'https:' || url.protocol === 'http:' ? url.host : redirectUri, 200);
}

/** What the consent page names: the client (from its metadata), where it sends the user back, and the scopes. */
export interface ConsentView {
  readonly clientName: string;
  readonly clientId: string;
  /** The redirect URI of the request (the page shows its origin, or a native app's whole URI). */
  readonly redirectUri: string;
  readonly scopes: readonly string[];
  readonly user: string;
  readonly action: string;
  readonly csrf: string;
}

export function consentPage(res: ServerResponse, view: ConsentView): void {
  const scopes = view.scopes.length > 0 ? `<ul aria-label="Requested permissions">${view.scopes.map((s) => `<li><code>${escapeHtml(neutralize(s))}</code></li>`).join('')}</ul>` : '<p>No permissions beyond your identity.</p>';
  page(
    res,
    200,
    `Allow ${neutralize(view.clientName)}?`,
    `<h1>Allow <strong>${escapeHtml(neutralize(view.clientName))}</strong> <small>(a name the application gave itself, not verified)</small> to use this server as you?</h1>
<p>Signed in as <strong>${escapeHtml(view.user)}</strong>.</p>
<p>The application <code>${escapeHtml(neutralize(view.clientId, 200))}</code> will send you back to <strong>${escapeHtml(destinationOf(view.redirectUri))}</strong> and be allowed:</p>
${scopes}
<form method="post" action="${escapeHtml(view.action)}">
<input type="hidden" name="csrf" value="${escapeHtml(view.csrf)}">
<button type="submit" name="decision" value="allow" id="allow">Allow</button>
<button type="submit" name="decision" value="deny" id="deny">Deny</button>
</form>`,
  );
}

/** A failure the user must see (upstream down, sign-in refused): what happened and, when known, the way back to the client. */
export function errorPage(res: ServerResponse, status: number, message: string, back?: string, headers?: Readonly<Record<string, string>>): void {
  page(
    res,
    status,
    'Sign-in failed',
    `<h1>Sign-in failed</h1><p role="alert">${escapeHtml(message)}</p>${back ? `<p><a class="button" id="continue" href="${escapeHtml(back)}">Return to the application</a></p>` : ''}`,
    headers,
  );
}
