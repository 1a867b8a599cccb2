import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor, within } from '../support/waiting';
import { Browser, findChromium } from './support/chromium';

/**
 * The host page's Content-Security-Policy holds whatever the view's HTML and the server's `_meta.ui.csp` say:
 * a view that tries to load an image from a local server (not a declared origin) must never reach it. The
 * view's own inline script reports when the image settled (loaded or refused), so the spec then knows whether
 * the request was made.
 */
const chromium = findChromium();
const HOST_PAGE = path.resolve(__dirname, '../../samples/apps/host.html');

// spec/support/global-setup.js installs it when missing (or stops the run): the spec never skips.
if (!chromium) throw new Error('Chromium is not installed: apt-get install -y chromium (npm test does it when it can), or set CHROMIUM_BIN.');

interface DomNode {
  nodeName: string;
  nodeValue?: string;
  nodeType: number;
  children?: DomNode[];
  contentDocument?: DomNode;
}

function textOf(node: DomNode): string {
  if (node.nodeType === 3) return node.nodeValue ?? '';
  if (node.nodeName === 'SCRIPT') return '';
  return [...(node.children ?? []), ...(node.contentDocument ? [node.contentDocument] : [])].map(textOf).join(' ');
}

describe('the minimal host page keeps its Content-Security-Policy', () => {
  let browser: Browser;
  let server: Server;
  let origin: string;
  const hits: string[] = [];

  beforeAll(async () => {
    server = createServer((request, response) => {
      hits.push(request.url ?? '');
      response.writeHead(204).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = Browser.launch(chromium!);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  /** Renders `html` under `csp` in the host page; resolves once the view's image request has settled. */
  async function render(html: string, csp?: Record<string, string[]>): Promise<void> {
    const page = await browser.newPage();
    await browser.send('Page.enable', {}, page);
    const loaded = browser.next('Page.loadEventFired', page);
    await browser.send('Page.navigate', { url: pathToFileURL(HOST_PAGE).href }, page);
    await within(loaded, 'the host page to load');
    const input = { tool: { name: 'probe', inputSchema: { type: 'object' } }, resource: { uri: 'ui://probe/view', text: html }, ui: csp ? { csp } : undefined, arguments: {}, result: { content: [] } };
    await browser.send('Runtime.evaluate', { expression: `mcpHost.render(${JSON.stringify(input)})` }, page);
    await waitFor(
      async () => {
        const { root } = await browser.send<{ root: DomNode }>('DOM.getDocument', { depth: -1, pierce: true }, page);
        return textOf(root).includes('image settled') || undefined;
      },
      { what: "the view's image to load or be refused", interval: 50 },
    );
  }

  const probe = (name: string) =>
    `<p id="s">waiting</p><script>const i = new Image(); i.onload = i.onerror = () => { document.getElementById('s').textContent = 'image settled'; }; i.src = '${origin}/${name}';</script>`;

  it('applies the policy even when the view hides a "<head>" in a comment before its real content', async () => {
    await render(`<!DOCTYPE html><!-- <head> --><html><body>${probe('comment')}</body></html>`);
    expect(hits).not.toContain('/comment');
  });

  it('takes a declared domain only as one source: a ";" cannot add a directive that opens the policy', async () => {
    await render(`<!DOCTYPE html><html><head></head><body>${probe('injected')}</body></html>`, {
      resourceDomains: ['https://cdn.example.com; img-src *'],
    });
    expect(hits).not.toContain('/injected');
  });

  it('still lets the view load from an origin the server declared (the control)', async () => {
    await render(`<!DOCTYPE html><html><head></head><body>${probe('declared')}</body></html>`, { resourceDomains: [origin] });
    expect(hits).toContain('/declared');
  });
});
