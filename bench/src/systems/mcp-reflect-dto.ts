import 'reflect-metadata';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';

/** The `book` tool's input as a class-validator DTO, shared by the mcp-reflect systems (standalone and in Nest). */
export class Author {
  @IsString() first!: string;
  @IsString() last!: string;
  @IsInt() born!: number;
}

export class BookInput {
  @IsString() @Length(1, 100) title!: string;
  @IsInt() @Min(1) @Max(10) copies!: number;
  @IsIn(['fiction', 'science', 'history']) genre!: string;
  @IsOptional() @IsString() note?: string;
  @ValidateNested({ each: true }) @Type(() => Author) authors!: Author[];
}
