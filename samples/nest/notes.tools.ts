import { Injectable, NotFoundException, UseGuards, UseInterceptors } from '@nestjs/common';
import { Args, Param, Tool } from 'mcp-reflect/common';
import { NewNote } from './note.dto';
import { type Note, NotesService } from './notes.service';
import { Roles, RolesGuard } from './roles.guard';
import { TimingInterceptor } from './timing.interceptor';

/** The MCP face of the notebook: a Nest provider whose methods are tools, on the same service as the controller. */
@Injectable()
@UseGuards(RolesGuard)
@UseInterceptors(TimingInterceptor)
export class NotesTools {
  constructor(private readonly notes: NotesService) {}

  @Tool({ description: 'Lists the notes, optionally those with a tag' })
  list_notes(@Param('tag', { optional: true, description: 'Only notes with this tag' }) tag?: string): Note[] {
    return this.notes.list(tag);
  }

  @Tool({ description: 'Adds a note' })
  add_note(@Args() note: NewNote): Note {
    return this.notes.add(note.title, note.body, note.tags);
  }

  @Tool({ description: 'Deletes a note (notes:admin only)' })
  @Roles(['notes:admin'])
  delete_note(@Param('id') id: number): string {
    if (!this.notes.remove(id)) throw new NotFoundException(`There is no note ${id}`);
    return `Deleted note ${id}`;
  }
}
