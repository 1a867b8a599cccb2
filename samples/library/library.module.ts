import { McpModule, Module } from 'mcp-reflect';
import { LibraryPrompts } from './library.prompts';
import { LibraryResources } from './library.resources';
import { LibraryService } from './library.service';
import { LibraryTools } from './library.tools';

@Module({
  imports: [
    McpModule.forRoot({
      name: 'library',
      version: '1.0.0',
      instructions: 'A small lending library: books as resources, reading prompts, and a borrow tool.',
    }),
  ],
  providers: [LibraryService, LibraryResources, LibraryPrompts, LibraryTools],
})
export class LibraryModule {}
