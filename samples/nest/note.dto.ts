import { IsArray, IsOptional, IsString, Length, MaxLength } from 'class-validator';
import { Field } from 'mcp-reflect';

/** A new note: the same class validates the REST body (Nest's ValidationPipe) and the tool's arguments (mcp-reflect). */
export class NewNote {
  @Field({ description: 'A short title' })
  @IsString()
  @Length(1, 80)
  title!: string;

  @Field({ description: 'The text of the note' })
  @IsString()
  @MaxLength(10_000)
  body!: string;

  @Field({ description: 'Tags to find it by', type: [String] })
  @IsOptional()
  @IsArray()
  @IsString({ each: true })
  tags?: string[];
}
