import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { gatewayModule } from './gateway.module';

// stdio by default; `--http` serves Streamable HTTP on 127.0.0.1:$PORT (default 3000) at /mcp.
async function main(): Promise<void> {
  const everything = { command: 'npx', args: ['-y', '@modelcontextprotocol/server-everything', 'stdio'] };
  const app = await McpFactory.create(gatewayModule({ everything }));
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
