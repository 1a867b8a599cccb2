import { McpModule, Module } from 'mcp-reflect';
import { EdgeTools } from './edge.tools';

@Module({ imports: [McpModule.forRoot({ name: 'edge', version: '1.0.0' })], providers: [EdgeTools] })
export class EdgeModule {}
