import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
// Written by `npx mcp-reflect generate --project samples/typed/tsconfig.json` (CI runs it with --check).
import { metadata } from './mcp-metadata';
import { TypedModule } from './typed.module';

async function main(): Promise<void> {
  const app = await McpFactory.create(TypedModule, { metadata });
  await app.listen({ transport: 'stdio' });
  console.error('typed-trips MCP server ready on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
