import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { LibraryModule } from './library.module';

async function main(): Promise<void> {
  const app = await McpFactory.create(LibraryModule);
  await app.listen({ transport: 'stdio' });
  console.error('library MCP server ready on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
