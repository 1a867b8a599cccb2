import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { EverythingModule } from './everything.module';

/**
 * The conformance sample: stdio by default; `--http` serves Streamable HTTP on 127.0.0.1 (port from
 * `--port N` or PORT, 0 for a free one) and prints the endpoint URL on stdout as `MCP_URL=<url>`.
 */
async function main(): Promise<void> {
  const app = await McpFactory.create(EverythingModule);
  app.enableShutdownHooks();
  if (process.argv.includes('--http')) {
    const flag = process.argv.indexOf('--port');
    const port = Number(flag >= 0 ? process.argv[flag + 1] : (process.env.PORT ?? 3000));
    await app.listen({ transport: 'http', host: '127.0.0.1', port });
    process.stdout.write(`MCP_URL=${await app.getUrl()}\n`);
  } else {
    await app.listen({ transport: 'stdio' });
    console.error('everything MCP server ready on stdio');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
