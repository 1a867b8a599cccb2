import 'reflect-metadata';
import { McpFactory, type FetchHandler, type FetchHandlerOptions } from 'mcp-reflect';
import { EdgeModule } from './edge.module';
import { metadata } from './mcp-metadata';
import { validators } from './mcp-validators';

/**
 * The application behind a web-standard handler: one `(request) => Response` function for Bun.serve,
 * Deno.serve, a Cloudflare Worker, Hono or a Next.js route handler. The types come from mcp-metadata.ts
 * (`mcp-reflect generate`: bundlers emit no decorator metadata) and the validators from mcp-validators.js
 * (`mcp-reflect validators`: Workers allow no code generation, so none is compiled at start).
 */
export async function createHandler(options: FetchHandlerOptions = {}): Promise<FetchHandler> {
  const app = await McpFactory.create(EdgeModule, { metadata, validators });
  return app.createFetchHandler({ path: '/mcp', ...options });
}
