import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';

export interface Note {
  readonly id: number;
  readonly title: string;
  readonly body: string;
  readonly tags: readonly string[];
}

/** The one store behind both the REST API and the MCP tools. */
@Injectable()
export class NotesService {
  private readonly notes = new Map<number, Note>();
  private next = 1;
  private readonly max: number;

  constructor(config: ConfigService) {
    this.max = config.get<number>('notes.max', 100);
  }

  list(tag?: string): Note[] {
    return [...this.notes.values()].filter((note) => tag === undefined || note.tags.includes(tag));
  }

  add(title: string, body: string, tags: readonly string[] = []): Note {
    if (this.notes.size >= this.max) throw new Error(`The notebook is full (${this.max} notes)`);
    const note = { id: this.next++, title, body, tags };
    this.notes.set(note.id, note);
    return note;
  }

  remove(id: number): boolean {
    return this.notes.delete(id);
  }
}
