import {
  Complete,
  Injectable,
  Param,
  Prompt,
  assistantMessage,
  embeddedResource,
  image,
  userMessage,
  type PromptMessage,
} from 'mcp-reflect';
import { COVER_PNG, Genre } from './books';
import { LibraryService } from './library.service';

@Injectable()
export class LibraryPrompts {
  constructor(private readonly library: LibraryService) {}

  // A string: one user message. `length` has a static completion list.
  @Prompt({
    description: 'Ask for a reading recommendation',
    complete: { length: ['short', 'medium', 'long'] },
  })
  recommend(
    @Param('genre', { description: 'fiction, science or history' }) genre: string,
    @Param('length', { optional: true, description: 'short, medium or long' }) length?: string,
  ): string {
    return `Recommend one ${genre} book from this library${length ? ` (${length})` : ''}, and say why in two sentences.`;
  }

  // Messages: the book as an embedded resource, its cover as an image, and a few-shot exchange.
  @Prompt({ name: 'discuss_book', title: 'Discuss a book', description: 'Start a discussion about one book' })
  discuss(
    @Param('id', { type: 'integer', description: 'book id' }) id: number,
    @Param('questions', { default: 3, description: 'how many questions' }) questions: number,
  ): PromptMessage[] {
    const book = this.library.find(id);
    return [
      userMessage(embeddedResource(`books://${id}`, JSON.stringify(book), 'application/json')),
      userMessage(image(COVER_PNG, 'image/png')),
      userMessage('What is this book about?'),
      assistantMessage(`"${book.title}" by ${book.author}, published in ${book.year}.`),
      userMessage(`Ask me ${questions} questions to start a discussion about it.`),
    ];
  }

  // Dynamic completion: genres, filtered by what was typed.
  @Complete({ prompt: 'recommend', argument: 'genre' })
  genres(value: string): string[] {
    return Object.values(Genre).filter((g) => g.startsWith(value.toLowerCase()));
  }

  @Complete({ prompt: 'discuss_book', argument: 'id' })
  bookIds(value: string): string[] {
    return this.library.all().map((b) => String(b.id)).filter((id) => id.startsWith(value));
  }
}
