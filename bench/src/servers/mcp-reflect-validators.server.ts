import { McpFactory, type PrecompiledValidators } from 'mcp-reflect';
import { reflectModule } from '../systems/mcp-reflect';

// The mcp-reflect stdio server started with its validators compiled ahead of time (argv[3]: the file
// `mcp-reflect validators` wrote): no validator is compiled at start.
const { validators } = require(process.argv[3]!) as { validators: PrecompiledValidators };
void McpFactory.create(reflectModule(Number(process.argv[2] ?? 0)), { validators }).then((app) => app.listen({ transport: 'stdio' }));
