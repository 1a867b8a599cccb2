import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The REST API the gateway serves through its OpenAPI document (inventory.openapi.json): stock per ISBN. A
 * stand-in for an API the team already has; main.ts starts it on a free port when INVENTORY_URL is not set.
 */
const STOCK = new Map<string, number>([
  ['9780060512750', 4],
  ['9780441478125', 0],
  ['9780553283686', 12],
]);

export async function startInventoryApi(port = 0): Promise<{ readonly url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = /^\/v1\/stock\/([^/]+)$/.exec(url.pathname);
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'GET' && url.pathname === '/v1/stock') return json(200, { items: [...STOCK].map(([isbn, copies]) => ({ isbn, copies })) });
    if (req.method === 'GET' && match) {
      const isbn = decodeURIComponent(match[1]!);
      return STOCK.has(isbn) ? json(200, { isbn, copies: STOCK.get(isbn) }) : json(404, { message: `No stock record for ISBN ${isbn}` });
    }
    json(404, { message: 'Not found' });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: bound } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${bound}/v1`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
