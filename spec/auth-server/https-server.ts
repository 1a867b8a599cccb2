import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, request, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';

/** A self-signed certificate for 127.0.0.1 (openssl), and the https server on it: where Client ID Metadata Documents are served. */
export interface HttpsSite {
  readonly origin: string;
  readonly ca: string;
  /** A fetch that trusts this site's certificate (what a server behind an internal CA is given). */
  readonly fetch: typeof fetch;
  /** Requests received, by path. */
  hits(path: string): number;
  close(): Promise<void>;
}

export async function startHttpsSite(handle: (req: IncomingMessage, res: ServerResponse) => void): Promise<HttpsSite> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cimd-'));
  execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', `${dir}/key.pem`, '-out', `${dir}/cert.pem`], { stdio: 'ignore' });
  const key = readFileSync(`${dir}/key.pem`, 'utf8');
  const ca = readFileSync(`${dir}/cert.pem`, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  const hits = new Map<string, number>();
  const server: Server = createServer({ key, cert: ca }, (req, res) => {
    const p = new URL(req.url ?? '/', 'https://x').pathname;
    hits.set(p, (hits.get(p) ?? 0) + 1);
    handle(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const trusted = ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const req = request(String(input instanceof Request ? input.url : input), { method: init.method ?? 'GET', headers: Object.fromEntries(new Headers(init.headers)), ca, signal: init.signal ?? undefined }, (res) => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(res.headers)) if (typeof value === 'string') headers.set(name, value);
        resolve(new Response(Readable.toWeb(res) as ReadableStream, { status: res.statusCode, headers }));
      });
      req.on('error', reject);
      req.end();
    })) as typeof fetch;
  return {
    origin,
    ca,
    fetch: trusted,
    hits: (p) => hits.get(p) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
