import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { NotesModule } from './notes.module';

// stdio: the client's name is the user (try 'ada', an editor, or 'bob', a reader).
async function main(): Promise<void> {
  const app = await McpFactory.create(NotesModule);
  await app.listen({ transport: 'stdio' });
  console.error('notes MCP server ready on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
