import 'reflect-metadata';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { Browser, findChromium } from '../apps/support/chromium';
import { authorizationUrl, pkce, register, SignInModule, startUpstream, tokenRequest, type Upstream } from './support';

/**
 * The login and consent pages in Debian's headless Chromium, with real clicks and typing (DevTools Input
 * events): the upstream provider's sign-in, then this server's consent page, then the redirect to the client.
 */
const chromium = findChromium();
if (!chromium) throw new Error('Chromium is not installed: apt-get install -y chromium (npm test does it when it can), or set CHROMIUM_BIN.');

describe('sign-in and consent in Chromium', () => {
  let upstream: Upstream;
  let app: McpApplication;
  let browser: Browser;
  let page: string;
  let callbackServer: Server;
  const callbacks: URL[] = [];
  let redirect: string;
  let origin: string;
  let url: string;

  const evaluate = async <T>(expression: string): Promise<T> => {
    const { result } = await browser.send<{ result: { value: T } }>('Runtime.evaluate', { expression, returnByValue: true }, page);
    return result.value;
  };
  const waitFor = async <T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> => {
    for (let i = 0; i < 200; i++) {
      const value = await probe().catch(() => undefined);
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`Chromium: no ${what} (at ${await evaluate<string>('location.href').catch(() => '?')})`);
  };
  /** A real click at the middle of the element `selector` names. */
  const click = async (selector: string) => {
    const box = await waitFor(selector, () => evaluate<{ x: number; y: number } | null>(`(() => { const r = document.querySelector(${JSON.stringify(selector)})?.getBoundingClientRect(); return r ? { x: r.x + r.width / 2, y: r.y + r.height / 2 } : null; })()`));
    for (const type of ['mousePressed', 'mouseReleased']) await browser.send('Input.dispatchMouseEvent', { type, ...box, button: 'left', clickCount: 1 }, page);
  };
  const type = async (selector: string, text: string) => {
    await click(selector);
    await browser.send('Input.insertText', { text }, page);
  };

  beforeAll(async () => {
    upstream = await startUpstream();
    app = await McpFactory.create(SignInModule);
    await app.listen({ transport: 'http', port: 0, auth: { scopesSupported: ['notes:read'], server: { upstream: { name: 'Upstream ID', issuer: upstream.issuer, clientId: upstream.clientId, clientSecret: upstream.clientSecret } } } });
    url = await app.getUrl();
    origin = new URL(url).origin;
    upstream.register(`${origin}/oauth/callback`);
    callbackServer = createServer((req, res) => {
      // The browser also asks this origin for its /favicon.ico: only the redirects to the callback count.
      const reached = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (reached.pathname !== '/callback') return void res.writeHead(404).end();
      callbacks.push(new URL(req.url ?? '/', redirect));
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>Signed in</title><p id="done">You can close this window.</p>');
    });
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    redirect = `http://127.0.0.1:${(callbackServer.address() as AddressInfo).port}/callback`;
    browser = Browser.launch(chromium!);
    page = await browser.newPage();
    await browser.send('Page.enable', {}, page);
    await browser.send('Runtime.enable', {}, page);
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (callbackServer ? callbackServer.close(() => resolve()) : resolve()));
    await app?.close();
    await upstream?.close();
  });

  it('signs in upstream, shows an accessible consent page naming the client, its redirect host and scopes, and Allow lands a code', async () => {
    const clientId = await register(origin, [redirect], { client_name: 'Chromium Desktop' });
    const { verifier, challenge } = pkce();
    await browser.send('Page.navigate', { url: authorizationUrl(origin, { client_id: clientId, redirect_uri: redirect, code_challenge: challenge, code_challenge_method: 'S256', resource: url, scope: 'notes:read' }).href }, page);

    // The upstream provider's sign-in page, then its consent ("Continue").
    await waitFor('upstream login page', () => evaluate<boolean>(`location.origin === ${JSON.stringify(upstream.issuer)} && !!document.querySelector('input[name=login]')`));
    await type('input[name=login]', 'carol');
    await type('input[name=password]', 'secret');
    await click('button[type=submit]');
    await waitFor('upstream consent page', () => evaluate<boolean>(`!!document.querySelector('input[name=prompt][value=consent]')`));
    await click('button[type=submit]');

    // This server's consent page.
    await waitFor('consent page', () => evaluate<boolean>(`location.origin === ${JSON.stringify(origin)} && !!document.querySelector('#allow')`));
    const view = await evaluate<Record<string, unknown>>(`({
      lang: document.documentElement.lang,
      title: document.title,
      heading: document.querySelector('h1').textContent,
      text: document.querySelector('main').textContent.replace(/\\s+/g, ' '),
      scopes: [...document.querySelectorAll('ul[aria-label="Requested permissions"] li')].map((li) => li.textContent),
      buttons: [...document.querySelectorAll('button')].map((b) => b.textContent),
      csrf: document.querySelector('input[name=csrf]').value.length,
    })`);
    expect(view).toEqual({
      lang: 'en',
      title: 'Allow Chromium Desktop?',
      heading: 'Allow Chromium Desktop (a name the application gave itself, not verified) to use this server as you?',
      text: expect.stringContaining(`Signed in as carol@example.com. The application ${clientId} will send you back to ${new URL(redirect).host}`),
      scopes: ['notes:read'],
      buttons: ['Allow', 'Deny'],
      csrf: 43,
    });
    await click('#allow');

    await waitFor('redirect to the client', () => evaluate<boolean>(`!!document.querySelector('#done')`));
    expect(callbacks).toHaveLength(1);
    const code = callbacks[0].searchParams.get('code')!;
    expect(callbacks[0].searchParams.get('iss')).toBe(origin);
    const tokens = await tokenRequest(origin, { grant_type: 'authorization_code', code, code_verifier: verifier, client_id: clientId, redirect_uri: redirect, resource: url });
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', scope: 'notes:read' } });
  });

  it("this server's pages cannot be framed: Chromium shows nothing of them in another site's iframe", async () => {
    // Every page (consent, errors) has the same headers: an error page needs no sign-in to reach.
    const target = `${origin}/oauth/callback?state=forged`;
    await browser.send('Page.navigate', { url: `${upstream.issuer}/.well-known/openid-configuration` }, page);
    await waitFor('a page of another origin', () => evaluate<boolean>(`document.readyState === 'complete'`));
    await evaluate(`(() => { document.body.innerHTML = ''; const f = document.createElement('iframe'); f.src = ${JSON.stringify(target)}; document.body.append(f); })()`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    // The frame's document, read through DevTools (the frame is in the page's process, see ../apps/support/chromium.ts).
    const { root } = await browser.send<{ root: unknown }>('DOM.getDocument', { depth: -1, pierce: true }, page);
    const everything = JSON.stringify(root);
    expect(everything).toContain('"IFRAME"');
    expect(everything).not.toContain('This sign-in has expired or is unknown');
    // Loaded at the top level, the same page shows.
    await browser.send('Page.navigate', { url: target }, page);
    await waitFor('the page itself', () => evaluate<boolean>(`document.body?.textContent.includes('This sign-in has expired or is unknown')`));
  });
});
