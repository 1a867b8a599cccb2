import 'reflect-metadata';
import path from 'node:path';
import { McpFactory } from 'mcp-reflect';
import { gatewayModule } from './gateway.module';
import { startInventoryApi } from './inventory.api';

// stdio by default; `--http` serves Streamable HTTP on 127.0.0.1:$PORT (default 3000) at /mcp.
async function main(): Promise<void> {
  // The reference server's installed file, run by this Node: `npx -y` would download it at some start and miss the
  // proxy's connectTimeout (10 s) (docs/composition.md). In this repository tools/everything installs it.
  const entry = require.resolve('@modelcontextprotocol/server-everything/dist/index.js', { paths: [__dirname, path.join(__dirname, '..', '..', 'tools', 'everything')] });
  const everything = { command: process.execPath, args: [entry, 'stdio'] };
  // The REST API behind the inventory_* tools: INVENTORY_URL, or the stand-in on a free port.
  const inventoryUrl = process.env.INVENTORY_URL ?? (await startInventoryApi()).url;
  const app = await McpFactory.create(gatewayModule({ everything, inventoryUrl }));
  app.enableShutdownHooks();
  if (!process.argv.includes('--http')) {
    await app.listen({ transport: 'stdio' });
    console.error('gateway MCP server ready on stdio');
    return;
  }
  await app.listen({ transport: 'http', host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
  console.error(`gateway MCP server ready at ${await app.getUrl()} (Streamable HTTP); stop it with Ctrl-C.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
