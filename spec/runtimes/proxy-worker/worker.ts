// A Cloudflare Worker whose application proxies a remote MCP server over Streamable HTTP (McpModule.proxy({ url })):
// spec/runtimes/proxy-worker.e2e.spec.ts runs it on workerd (wrangler dev) with the remote's URL in REMOTE_URL.
import 'reflect-metadata';
import { McpFactory, McpModule, Module, type FetchHandler } from 'mcp-reflect';

let handler: Promise<FetchHandler> | undefined;

async function createHandler(url: string): Promise<FetchHandler> {
  // No decorator syntax: @Module() applied as a function, so the bundle needs no decorator support.
  class GatewayModule {}
  Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.proxy({ namespace: 'ev', url })] })(GatewayModule);
  const app = await McpFactory.create(GatewayModule);
  return app.createFetchHandler({ path: '/mcp', stateless: true });
}

export default {
  async fetch(request: Request, env: { REMOTE_URL: string }): Promise<Response> {
    handler ??= createHandler(env.REMOTE_URL);
    return (await handler)(request, { remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined });
  },
};
