import { McpFactory } from 'mcp-reflect';
import { reflectModule } from '../systems/mcp-reflect';

void McpFactory.create(reflectModule(Number(process.argv[2] ?? 0))).then((app) => app.listen({ transport: 'stdio' }));
