import 'reflect-metadata';
import { ValidationPipe } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpService } from 'mcp-reflect/nest';
import { AppModule } from './app.module';
import { serveOpenApi } from './openapi';

// `--stdio`: the MCP server alone on stdio, from an application context (what stdio clients launch).
// Otherwise: the Nest HTTP application on 127.0.0.1:$PORT (default 3000): REST at /notes (its OpenAPI document at
// /openapi.json), MCP at /mcp.
async function main(): Promise<void> {
  if (process.argv.includes('--stdio')) {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] }); // stdout is the protocol
    context.enableShutdownHooks();
    await context.get(McpService).listen({ transport: 'stdio', auth: { clientId: 'stdio', scopes: ['notes:admin'], claims: {}, token: '' } });
    console.error('nest-notes MCP server ready on stdio');
    return;
  }
  const app = await NestFactory.create(AppModule);
  app.useGlobalPipes(new ValidationPipe({ whitelist: true })); // REST bodies; MCP arguments are validated by mcp-reflect
  app.enableShutdownHooks();
  serveOpenApi(app);
  await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
  const url = `${await app.getUrl()}/mcp`;
  console.error(`nest-notes ready: REST at ${url.replace(/\/mcp$/, '/notes')} (OpenAPI: ${url.replace(/\/mcp$/, '/openapi.json')}), MCP at ${url} (Streamable HTTP). Stop it with Ctrl-C.`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
