import { Body, Controller, Delete, Get, NotFoundException, Param, ParseIntPipe, Post, Query, UseGuards } from '@nestjs/common';
import { ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import { NewNote, NoteView } from './note.dto';
import { type Note, NotesService } from './notes.service';
import { Roles, RolesGuard } from './roles.guard';

/**
 * The REST face of the notebook, on the same service (and guard, and DTO) as the MCP tools. Its OpenAPI
 * document (openapi.ts) is what `McpModule.fromOpenApi()` reads in docs/openapi.md.
 */
@ApiTags('notes')
@Controller('notes')
@UseGuards(RolesGuard)
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Get()
  @ApiOperation({ operationId: 'listNotes', summary: 'Lists the notes, optionally those with a tag' })
  @ApiQuery({ name: 'tag', required: false, description: 'Only notes with this tag' })
  @ApiOkResponse({ type: [NoteView] })
  list(@Query('tag') tag?: string): Note[] {
    return this.notes.list(tag);
  }

  @Post()
  @ApiOperation({ operationId: 'addNote', summary: 'Adds a note' })
  @ApiCreatedResponse({ type: NoteView })
  add(@Body() note: NewNote): Note {
    return this.notes.add(note.title, note.body, note.tags);
  }

  @Delete(':id')
  @Roles(['notes:admin'])
  @ApiOperation({ operationId: 'deleteNote', summary: 'Deletes a note (the notes:admin role, header x-roles)' })
  @ApiParam({ name: 'id', type: 'integer' })
  @ApiOkResponse({ description: 'Deleted' })
  @ApiForbiddenResponse({ description: 'Without the notes:admin role' })
  @ApiNotFoundResponse({ description: 'No such note' })
  remove(@Param('id', ParseIntPipe) id: number): void {
    if (!this.notes.remove(id)) throw new NotFoundException(`There is no note ${id}`);
  }
}
