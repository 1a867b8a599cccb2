import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { AppsModule } from './apps.module';

// Streamable HTTP on 127.0.0.1:$PORT (default 3000) at /mcp: connect an MCP Apps host (or samples/apps/host.html
// through the spec's harness) and call `forecast`; `--stdio` serves stdio instead.
async function main(): Promise<void> {
  const app = await McpFactory.create(AppsModule);
  if (process.argv.includes('--stdio')) {
    await app.listen({ transport: 'stdio' });
    return;
  }
  app.enableShutdownHooks();
  await app.listen({ transport: 'http', host: '127.0.0.1', port: Number(process.env.PORT ?? 3000) });
  console.error(`forecast MCP App ready at ${await app.getUrl()} (Streamable HTTP); tool 'forecast' shows ui://forecast/view`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
