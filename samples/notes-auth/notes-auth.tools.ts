import { CurrentAuth, Injectable, Param, Prompt, Public, ResourceTemplate, Scopes, Tool, ToolError, userMessage, type McpAuth } from 'mcp-reflect';

export interface Note {
  readonly id: number;
  readonly text: string;
  /** The subject of the token that wrote it. */
  readonly author: string;
}

/** The notes (in memory: a real server would keep them in a database). */
@Injectable()
export class NoteStore {
  private readonly notes: Note[] = [{ id: 1, text: 'Welcome to notes-auth', author: 'system' }];

  all(): readonly Note[] {
    return this.notes;
  }

  find(id: number): Note | undefined {
    return this.notes.find((note) => note.id === id);
  }

  add(text: string, author: string): Note {
    const note = { id: this.notes.length + 1, text, author };
    this.notes.push(note);
    return note;
  }
}

/**
 * Every component here needs `notes:read`; writing needs `notes:write` as well. A token with `notes:read`
 * alone sees no `addNote` in tools/list, and calling it is answered 403 insufficient_scope (step-up).
 */
@Injectable()
@Scopes('notes:read')
export class NoteTools {
  constructor(private readonly store: NoteStore) {}

  @Tool({ description: 'Lists every note.' })
  listNotes(): Note[] {
    return [...this.store.all()];
  }

  @Tool({ description: 'Adds a note, written by the caller.' })
  @Scopes('notes:write')
  addNote(@Param() text: string, @CurrentAuth('subject') subject: string | undefined): Note {
    return this.store.add(text, subject ?? 'unknown');
  }

  @Tool({ description: 'Who the server thinks you are, and what your token allows.' })
  @Public()
  whoami(@CurrentAuth() auth: McpAuth | undefined): { subject?: string; clientId?: string; scopes: readonly string[] } {
    return { subject: auth?.subject, clientId: auth?.clientId, scopes: auth?.scopes ?? [] };
  }

  @ResourceTemplate('notes://{id}', { name: 'note', mimeType: 'text/plain' })
  note(@Param('id', { type: 'integer' }) id: number): string {
    const note = this.store.find(id);
    if (!note) throw new ToolError(`No note ${id}: listNotes shows the ids.`);
    return note.text;
  }

  @Prompt({ description: 'Asks the model to summarize every note.' })
  summarize() {
    return [userMessage(`Summarize these notes:\n${this.store.all().map((n) => `- ${n.text}`).join('\n')}`)];
  }
}
