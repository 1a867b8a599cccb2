import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsArray, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Field } from 'mcp-reflect/common';

/**
 * A new note: the same class validates the REST body (Nest's ValidationPipe) and the tool's arguments
 * (mcp-reflect), and describes the body in the REST API's OpenAPI document (@nestjs/swagger, openapi.ts).
 */
export class NewNote {
  @Field({ description: 'A short title' })
  @ApiProperty({ description: 'A short title', minLength: 1, maxLength: 80 })
  @IsString()
  @Length(1, 80)
  title!: string;

  @Field({ description: 'The text of the note' })
  @ApiProperty({ description: 'The text of the note', maxLength: 10_000 })
  @IsString()
  @MaxLength(10_000)
  body!: string;

  @Field({ description: 'Tags to find it by', type: [String] })
  @ApiPropertyOptional({ description: 'Tags to find it by', type: [String] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];
}

/** A stored note, as the REST API answers it (its OpenAPI schema). */
export class NoteView {
  @ApiProperty({ type: 'integer' })
  id!: number;

  @ApiProperty()
  title!: string;

  @ApiProperty()
  body!: string;

  @ApiProperty({ type: [String] })
  tags!: string[];
}
