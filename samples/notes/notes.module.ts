import { APP_MIDDLEWARE, McpModule, Module } from 'mcp-reflect';
import { Directory, RequestCounter } from './notes.enhancers';
import { NotesTools } from './notes.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0' })],
  providers: [Directory, NotesTools, RequestCounter, { provide: APP_MIDDLEWARE, useExisting: RequestCounter }],
})
export class NotesModule {}
