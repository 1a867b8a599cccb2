import { Injectable, NotFoundException, UseGuards, UseInterceptors } from '@nestjs/common';
import { Args, Param, Tool } from 'mcp-reflect/common';
import * as z from 'zod';
import { NewNote } from './note.dto';
import { type Note, NotesService } from './notes.service';
import { Roles, RolesGuard } from './roles.guard';
import { TimingInterceptor } from './timing.interceptor';

/** The arguments of find_notes as a zod schema (issue 42): advertised as its JSON Schema, validated by zod. */
const FindNotes = z.object({
  text: z.string().min(2).describe('Text to look for in titles and bodies'),
  limit: z.number().int().min(1).max(20).default(5),
});

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

  @Tool({ description: 'Finds notes whose title or body contains a text', parameters: FindNotes })
  find_notes({ text, limit }: z.infer<typeof FindNotes>): Note[] {
    const needle = text.toLowerCase();
    return this.notes.list().filter((n) => `${n.title} ${n.body}`.toLowerCase().includes(needle)).slice(0, limit);
  }

  @Tool({ description: 'Deletes a note (notes:admin only)' })
  @Roles(['notes:admin'])
  delete_note(@Param('id') id: number): string {
    if (!this.notes.remove(id)) throw new NotFoundException(`There is no note ${id}`);
    return `Deleted note ${id}`;
  }
}
