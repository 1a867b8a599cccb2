import { McpModule, Module } from 'mcp-reflect';
import { EverythingResources } from './everything.resources';
import { EverythingNextTools } from './everything.next';
import { EverythingTasks } from './everything.tasks';
import { EverythingTools } from './everything.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'mcp-reflect-everything', version: '1.0.0', instructions: 'Every MCP conformance scenario.' })],
  providers: [EverythingTools, EverythingResources, EverythingNextTools, EverythingTasks],
})
export class EverythingModule {}
