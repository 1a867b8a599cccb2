import { Injectable, Param, Tool, UseFilters, UseGuards, UseInterceptors } from 'mcp-reflect';
import { CurrentUser, NoteNotFound, NoteNotFoundFilter, RoleGuard, Roles, TimingInterceptor, TrimPipe } from './notes.enhancers';

interface Note {
  id: number;
  author: string;
  text: string;
}

@Injectable()
@UseGuards(RoleGuard)
@UseInterceptors(TimingInterceptor)
@UseFilters(NoteNotFoundFilter)
@Roles(['reader'])
export class NotesTools {
  private readonly notes: Note[] = [{ id: 1, author: 'ada', text: 'Buy milk' }];

  @Tool({ name: 'list_notes', description: 'List the notes', annotations: { readOnlyHint: true } })
  list(): Note[] {
    return this.notes;
  }

  @Tool({ name: 'read_note', description: 'Read one note', annotations: { readOnlyHint: true } })
  read(@Param('id') id: number): Note {
    const note = this.notes.find((n) => n.id === id);
    if (!note) throw new NoteNotFound(id);
    return note;
  }

  @Roles(['editor'])
  @Tool({ name: 'add_note', description: 'Add a note' })
  add(@Param('text', TrimPipe) text: string, @CurrentUser() author: string): Note {
    const note = { id: this.notes.length + 1, author, text };
    this.notes.push(note);
    return note;
  }
}
