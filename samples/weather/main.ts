import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { WeatherModule } from './weather.module';

async function main(): Promise<void> {
  const app = await McpFactory.create(WeatherModule);
  await app.listen({ transport: 'stdio' });
  console.error('weather MCP server ready on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
