import 'reflect-metadata';
import { Args, Injectable, McpFactory, McpModule, Module, Tool } from 'mcp-reflect';
import { bookText } from '../system';
import { AddTools, extraTools } from '../systems/mcp-reflect-extra';
import { FieldBookInput } from '../systems/mcp-reflect-field-dto';

// The same tools as the mcp-reflect system, its DTO declared with @Field() instead of class-validator: the
// cold-start comparison that shows what importing class-validator costs.
@Injectable()
class BookTools {
  @Tool({ description: 'Register a book' })
  book(@Args() input: FieldBookInput): string {
    return bookText(input);
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'mcp-reflect', version: '1.0.0' })],
  providers: [AddTools, BookTools, extraTools(Number(process.argv[2] ?? 0))] as never,
})
class BenchModule {}

void McpFactory.create(BenchModule).then((app) => app.listen({ transport: 'stdio' }));
