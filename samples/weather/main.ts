import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { WeatherModule } from './weather.module';

// stdio by default (what `npm start` and stdio clients launch); `--http` serves Streamable HTTP on
// 127.0.0.1:$PORT (default 3000) at /mcp.
async function main(): Promise<void> {
  const app = await McpFactory.create(WeatherModule);
  if (!process.argv.includes('--http')) {
    await app.listen({ transport: 'stdio' });
    console.error('weather MCP server ready on stdio');
    return;
  }
  app.enableShutdownHooks();
  const port = Number(process.env.PORT ?? 3000);
  await app.listen({ transport: 'http', host: '127.0.0.1', port });
  const url = await app.getUrl();
  console.error(
    [
      `weather MCP server ready at ${url} (Streamable HTTP)`,
      `Inspect it:   npx @modelcontextprotocol/inspector, then connect to ${url} (transport: Streamable HTTP)`,
      `Client config: { "mcpServers": { "weather": { "url": "${url}" } } }`,
      'Stop it with Ctrl-C.',
    ].join('\n'),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
