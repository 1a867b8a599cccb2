import 'reflect-metadata';
import { Transform, Type } from 'class-transformer';
import { IsDate, IsString, ValidateNested } from 'class-validator';
import { Args, Injectable, McpModule, Module, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

class Tag {
  @IsString() label!: string;
}

class Note {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim().toUpperCase() : value))
  @IsString()
  title!: string;

  @IsDate() due!: Date;

  @ValidateNested() @Type(() => Tag) tag!: Tag;
}

let received: Note | undefined;

@Injectable()
class NoteTools {
  @Tool() save(@Args() note: Note): string {
    received = note;
    return 'ok';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0' })], providers: [NoteTools] })
class NotesModule {}

describe('DTOs that use class-transformer rules', () => {
  it('are built by class-transformer, so @Transform runs and nested classes and Dates still arrive', async () => {
    const client = await createTestClient(NotesModule);
    try {
      const result = await client.callTool({
        name: 'save',
        arguments: { title: '  groceries ', due: '2026-05-06T07:08:09.000Z', tag: { label: 'home' } },
      });
      expect(result.isError).toBeUndefined();
      expect(received).toBeInstanceOf(Note);
      expect(received!.title).toBe('GROCERIES');
      expect(received!.due).toEqual(new Date('2026-05-06T07:08:09.000Z'));
      expect(received!.tag).toBeInstanceOf(Tag);
    } finally {
      await client.close();
    }
  });
});
