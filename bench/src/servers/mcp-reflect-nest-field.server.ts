import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Args, Tool } from 'mcp-reflect';
import { McpService } from 'mcp-reflect/nest';
import { bookText } from '../system';
import { FieldBookInput } from '../systems/mcp-reflect-field-dto';
import { nestAppModule } from '../systems/mcp-reflect-nest-app';

// The mcp-reflect-nest stdio server with its DTO declared with @Field() (class-validator never loaded), as
// mcp-reflect-field.server.ts is to the standalone one.
@Injectable()
class BookTools {
  @Tool({ description: 'Register a book' })
  book(@Args() input: FieldBookInput): string {
    return bookText(input);
  }
}

void NestFactory.createApplicationContext(nestAppModule(Number(process.argv[2] ?? 0), { book: BookTools }), { logger: false }).then((context) =>
  context.get(McpService).listen({ transport: 'stdio' }),
);
