import 'reflect-metadata';
import { Field } from 'mcp-reflect';

// The `book` tool's input declared with @Field() instead of class-validator (same schema, same validation):
// the cold-start comparison that shows what importing class-validator costs. Shared by the @Field() servers
// of mcp-reflect, standalone and in Nest; nothing here loads class-validator.
export class FieldAuthor {
  @Field({ type: String }) first!: string;
  @Field({ type: String }) last!: string;
  @Field({ type: 'integer' }) born!: number;
}

export class FieldBookInput {
  @Field({ schema: { minLength: 1, maxLength: 100 } }) title!: string;
  @Field({ type: 'integer', schema: { minimum: 1, maximum: 10 } }) copies!: number;
  @Field({ enum: ['fiction', 'science', 'history'] }) genre!: string;
  @Field({ optional: true }) note?: string;
  @Field({ type: [FieldAuthor] }) authors!: FieldAuthor[];
}
