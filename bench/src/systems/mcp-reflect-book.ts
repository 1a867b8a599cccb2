import { Args, Injectable, Tool } from 'mcp-reflect';
import { bookText } from '../system';
import { BookInput } from './mcp-reflect-dto';

/** mcp-reflect's `book(input)` on its class-validator DTO (the mcp-reflect system, and its Worker: edge/reflect.worker.ts). */
@Injectable()
export class BookTools {
  @Tool({ description: 'Register a book' })
  book(@Args() input: BookInput): string {
    return bookText(input);
  }
}
