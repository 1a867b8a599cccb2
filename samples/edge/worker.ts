// Cloudflare Workers: wrangler dev / wrangler deploy with samples/edge/wrangler.toml (docs/runtimes.md).
import type { FetchHandler } from 'mcp-reflect';
import { createHandler } from './app';

// An isolate serves many requests, but which one serves the next request is not said: no sessions, each
// request on its own (stateless), both protocol eras.
let handler: Promise<FetchHandler> | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    handler ??= createHandler({ stateless: true });
    return (await handler)(request, { remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined });
  },
};
