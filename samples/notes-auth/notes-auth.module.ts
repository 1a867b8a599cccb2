import { McpModule, Module } from 'mcp-reflect';
import { NoteStore, NoteTools } from './notes-auth.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'notes-auth', version: '1.0.0' })],
  providers: [NoteStore, NoteTools],
})
export class NotesAuthModule {}
