import 'reflect-metadata';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { MCP_APP_MIME_TYPE, MCP_APPS_EXTENSION, McpFactory, type McpApplication } from 'mcp-reflect';
import { AppsModule } from '../../samples/apps/apps.module';
import { forecastFor } from '../../samples/apps/forecast.app';
import { waitFor, within } from '../support/waiting';
import { Browser, findChromium } from './support/chromium';
import { extAppsErrors } from './support/ext-apps-schema';
import { colourCount, decodePng, inkIn } from './support/png';

/**
 * The sample's view rendered for real: the spec is the host's backend (an SDK client over Streamable HTTP lists
 * the tools, reads the tool's ui:// view and calls the tool), samples/apps/host.html is the host page
 * (sandboxed iframe, MCP Apps postMessage protocol), and Debian's headless Chromium shows it. The assertions
 * read the view's DOM through the DevTools protocol and look at the screenshot's pixels where that text lies.
 */
const chromium = findChromium();
const HOST_PAGE = path.resolve(__dirname, '../../samples/apps/host.html');
const SCREENSHOT = path.resolve(__dirname, '../../.ci/tmp/apps-forecast-view.png');

// spec/support/global-setup.js installs it when missing (or stops the run): the spec never skips.
if (!chromium) throw new Error('Chromium is not installed: apt-get install -y chromium (npm test does it when it can), or set CHROMIUM_BIN.');

interface DomNode {
  nodeId: number;
  nodeType: number;
  nodeName: string;
  nodeValue?: string;
  children?: DomNode[];
  contentDocument?: DomNode;
}

function findNode(node: DomNode, match: (n: DomNode) => boolean): DomNode | undefined {
  if (match(node)) return node;
  for (const child of [...(node.children ?? []), ...(node.contentDocument ? [node.contentDocument] : [])]) {
    const found = findNode(child, match);
    if (found) return found;
  }
  return undefined;
}

/** The text of the nodes under `node` (scripts and styles left out), one string. */
function textOf(node: DomNode): string {
  if (node.nodeType === 3) return node.nodeValue ?? '';
  if (node.nodeName === 'SCRIPT' || node.nodeName === 'STYLE' || node.nodeName === 'HEAD') return '';
  return [...(node.children ?? []), ...(node.contentDocument ? [node.contentDocument] : [])].map(textOf).join(' ');
}

/** One JSON-RPC message of the view ↔ host exchange, as the host page recorded it. */
interface Envelope {
  id?: number;
  method?: string;
  params?: unknown;
  result?: unknown;
}

/** The ext-apps schema definition of each message the exchange must contain. */
const SCHEMA_OF: Record<string, string> = {
  'ui/initialize': 'McpUiInitializeRequest',
  'ui/notifications/initialized': 'McpUiInitializedNotification',
  'ui/notifications/tool-input': 'McpUiToolInputNotification',
  'ui/notifications/tool-result': 'McpUiToolResultNotification',
  'ui/notifications/size-changed': 'McpUiSizeChangedNotification',
};


describe('the forecast view in headless Chromium', () => {
  let app: McpApplication;
  let client: Client;
  let browser: Browser;

  beforeAll(async () => {
    app = await McpFactory.create(AppsModule);
    await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
    client = new Client({ name: 'minimal-host', version: '1.0.0' }, { capabilities: { extensions: { [MCP_APPS_EXTENSION]: { mimeTypes: [MCP_APP_MIME_TYPE] } } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(await app.getUrl())));
    browser = Browser.launch(chromium!);
  });

  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  /**
   * What a host does for one tool call: its backend (the SDK client) finds the tool's view, reads it and calls
   * the tool; the host page shows the view and delivers the result. Resolves once the view reported its size
   * with the result in hand, with the page's session and the methods the view sent.
   */
  async function showCall(args: Record<string, unknown>): Promise<{ page: string; sent: string[]; viewDocument: () => Promise<DomNode> }> {
    const { tools } = await client.listTools();
    const tool = tools.find((t) => t.name === 'forecast')!;
    const uri = (tool._meta?.ui as { resourceUri: string }).resourceUri;
    const { contents } = await client.readResource({ uri });
    const resource = contents[0] as { uri: string; mimeType: string; text: string; _meta?: { ui?: unknown } };
    expect(resource.mimeType).toBe(MCP_APP_MIME_TYPE);
    const result = await client.callTool({ name: 'forecast', arguments: args });

    const page = await browser.newPage();
    await browser.send('Page.enable', {}, page);
    await browser.send('Runtime.enable', {}, page);
    // The page's way to its backend: the view's tools/call and resources/read, forwarded to the server.
    await browser.send('Runtime.addBinding', { name: 'mcpServerRequest' }, page);
    browser.on('Runtime.bindingCalled', (called, session) => {
      if (session !== page || called.name !== 'mcpServerRequest') return;
      const { id, method, params } = JSON.parse(called.payload as string) as { id: number; method: string; params: never };
      const answer: Promise<unknown> = method === 'tools/call' ? client.callTool(params) : client.readResource(params);
      void answer
        .then((value) => ({ id, result: value }), (error: Error) => ({ id, error: { code: -32603, message: error.message } }))
        .then((reply) => browser.send('Runtime.evaluate', { expression: `mcpHost.reply(${JSON.stringify(reply)})` }, page));
    });
    const loaded = browser.next('Page.loadEventFired', page);
    await browser.send('Page.navigate', { url: pathToFileURL(HOST_PAGE).href }, page);
    await within(loaded, 'the host page to load');
    const input = { tool, resource, ui: resource._meta?.ui, arguments: args, result };
    await browser.send('Runtime.evaluate', { expression: `mcpHost.render(${JSON.stringify(input)})` }, page);
    const rendered = await within(
      browser.send<{ result: { value: string[] } }>('Runtime.evaluate', { expression: 'mcpHost.rendered', awaitPromise: true, returnByValue: true }, page),
      'the view to render the tool result',
    );
    // The view's document (the iframe is sandboxed: only the DevTools protocol can look inside).
    const viewDocument = async () => {
      const { root } = await browser.send<{ root: DomNode }>('DOM.getDocument', { depth: -1, pierce: true }, page);
      const view = findNode(root, (n) => n.nodeName === 'IFRAME')?.contentDocument;
      expect(view).toBeDefined();
      return view!;
    };
    return { page, sent: rendered.result.value, viewDocument };
  }

  async function boxOf(page: string, document: DomNode, selector: string): Promise<{ x: number; y: number; width: number; height: number }> {
    const { nodeId } = await browser.send<{ nodeId: number }>('DOM.querySelector', { nodeId: document.nodeId, selector }, page);
    const { model } = await browser.send<{ model: { content: number[] } }>('DOM.getBoxModel', { nodeId }, page);
    const [x1, y1, , , x3, y3] = model.content as [number, number, number, number, number, number];
    return { x: x1, y: y1, width: x3 - x1, height: y3 - y1 };
  }

  it('shows the tool result the host delivers over postMessage, visibly', async () => {
    const { page, sent, viewDocument } = await showCall({ city: 'Lisbon' });
    // The view spoke the protocol: the handshake, then its size once it held the result.
    expect(sent.slice(0, 2)).toEqual(['ui/initialize', 'ui/notifications/initialized']);
    expect(sent).toContain('ui/notifications/size-changed');
    // Both sides' messages match the official MCP Apps schema (@modelcontextprotocol/ext-apps).
    const { result: exchanged } = await browser.send<{ result: { value: { from: string; message: Envelope }[] } }>(
      'Runtime.evaluate',
      { expression: 'mcpHost.messages', returnByValue: true },
      page,
    );
    const checked = new Set<string>();
    for (const { message } of exchanged.value) {
      const name = message.method && SCHEMA_OF[message.method];
      if (!name) continue;
      checked.add(message.method!);
      expect({ method: message.method, errors: extAppsErrors(name, { method: message.method, params: message.params }) }).toEqual({ method: message.method, errors: [] });
    }
    expect([...checked].sort()).toEqual(Object.keys(SCHEMA_OF).sort());
    const initialize = exchanged.value.find((m) => m.from === 'view' && m.message.method === 'ui/initialize')!.message;
    const answer = exchanged.value.find((m) => m.from === 'host' && m.message.id === initialize.id)!.message;
    expect(extAppsErrors('McpUiInitializeResult', answer.result)).toEqual([]);

    const view = await viewDocument();
    const text = textOf(view).replace(/\s+/g, ' ');
    expect(text).toContain('Forecast for Lisbon');
    expect(text).toContain('3-day forecast');
    for (const day of forecastFor('Lisbon')) expect(text).toContain(`${day.day} ${day.sky} ${day.high}° ${day.low}°`);

    // The screenshot: not blank, and ink where the view's title and first row lie.
    const { data } = await browser.send<{ data: string }>('Page.captureScreenshot', { format: 'png' }, page);
    const png = Buffer.from(data, 'base64');
    mkdirSync(path.dirname(SCREENSHOT), { recursive: true });
    writeFileSync(SCREENSHOT, png);
    const image = decodePng(png);
    expect(image.width).toBe(800);
    expect(colourCount(image)).toBeGreaterThan(16);
    for (const selector of ['#title', '#days tbody tr']) {
      const box = await boxOf(page, view, selector);
      expect(box.width * box.height).toBeGreaterThan(100);
      const { ink, pixels } = inkIn(image, box);
      expect({ selector, inked: ink / pixels > 0.02 }).toEqual({ selector, inked: true });
      if (selector !== '#title') {
        // The control: beside the row, inside the view, nothing is drawn.
        expect(inkIn(image, { x: box.x + box.width + 10, y: box.y + 2, width: 200, height: box.height - 4 }).ink).toBe(0);
      }
    }
  });

  it("forwards the view's tools/call (an app-only tool) to the server when the user clicks", async () => {
    const { page, viewDocument } = await showCall({ city: 'Oslo' });
    const button = await boxOf(page, await viewDocument(), '#refresh');
    const at = { x: button.x + button.width / 2, y: button.y + button.height / 2, button: 'left', clickCount: 1 };
    await browser.send('Input.dispatchMouseEvent', { type: 'mousePressed', ...at }, page);
    await browser.send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...at }, page);
    const monday = forecastFor('Oslo')[0]!;
    const refreshed = await waitFor(
      async () => {
        const text = textOf(await viewDocument()).replace(/\s+/g, ' ');
        return text.includes('Refreshed') ? text : undefined;
      },
      { what: 'the view to show the forwarded tools/call result', interval: 50 },
    );
    expect(refreshed).toContain(`Refreshed: ${monday.day} ${monday.sky} ${monday.high}°/${monday.low}°`);
  });
});
