import { Body, Controller, Delete, Get, NotFoundException, Param, ParseIntPipe, Post, Query, UseGuards } from '@nestjs/common';
import { NewNote } from './note.dto';
import { type Note, NotesService } from './notes.service';
import { Roles, RolesGuard } from './roles.guard';

/** The REST face of the notebook, on the same service (and guard, and DTO) as the MCP tools. */
@Controller('notes')
@UseGuards(RolesGuard)
export class NotesController {
  constructor(private readonly notes: NotesService) {}

  @Get()
  list(@Query('tag') tag?: string): Note[] {
    return this.notes.list(tag);
  }

  @Post()
  add(@Body() note: NewNote): Note {
    return this.notes.add(note.title, note.body, note.tags);
  }

  @Delete(':id')
  @Roles(['notes:admin'])
  remove(@Param('id', ParseIntPipe) id: number): void {
    if (!this.notes.remove(id)) throw new NotFoundException(`There is no note ${id}`);
  }
}
