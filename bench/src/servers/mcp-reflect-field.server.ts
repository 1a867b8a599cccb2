import 'reflect-metadata';
import { Args, Field, Injectable, McpFactory, McpModule, Module, Tool } from 'mcp-reflect';
import { bookText } from '../system';
import { AddTools, extraTools } from '../systems/mcp-reflect-extra';

// The same tools as the mcp-reflect system, its DTO declared with @Field() instead of class-validator: the
// cold-start comparison that shows what importing class-validator costs.
class Author {
  @Field({ type: String }) first!: string;
  @Field({ type: String }) last!: string;
  @Field({ type: 'integer' }) born!: number;
}

class BookInput {
  @Field({ schema: { minLength: 1, maxLength: 100 } }) title!: string;
  @Field({ type: 'integer', schema: { minimum: 1, maximum: 10 } }) copies!: number;
  @Field({ enum: ['fiction', 'science', 'history'] }) genre!: string;
  @Field({ optional: true }) note?: string;
  @Field({ type: [Author] }) authors!: Author[];
}

@Injectable()
class BookTools {
  @Tool({ description: 'Register a book' })
  book(@Args() input: BookInput): string {
    return bookText(input);
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'mcp-reflect', version: '1.0.0' })],
  providers: [AddTools, BookTools, extraTools(Number(process.argv[2] ?? 0))] as never,
})
class BenchModule {}

void McpFactory.create(BenchModule).then((app) => app.listen({ transport: 'stdio' }));
