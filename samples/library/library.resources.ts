import { Complete, Injectable, Param, Resource, ResourceList, ResourceResult, ResourceTemplate } from 'mcp-reflect';
import { COVER_PNG, Genre, type Book } from './books';
import { LibraryService } from './library.service';

@Injectable()
export class LibraryResources {
  constructor(private readonly library: LibraryService) {}

  // A string: one text content, text/markdown as declared.
  @Resource('library://rules', { title: 'Lending rules', mimeType: 'text/markdown' })
  rules(): string {
    return '# Lending rules\n\n- At most 28 days per loan.\n- Bring books back dry.';
  }

  // Bytes: one base64 blob.
  @Resource('library://logo.png', { description: 'The library logo', mimeType: 'image/png' })
  logo(): Uint8Array {
    return COVER_PNG;
  }

  // An object: JSON text, application/json. Clients may subscribe to it: the borrow tool notifies them.
  @Resource('library://loans', { description: 'Books currently lent out' })
  loans(): object {
    return { loans: this.library.currentLoans() };
  }

  // A template: {id} is bound to the parameter, typed as an integer (books://abc is rejected with -32602).
  @ResourceTemplate('books://{id}', { description: 'One book', mimeType: 'application/json' })
  book(@Param('id', { type: 'integer' }) id: number): Book {
    return this.library.find(id);
  }

  // A template whose variable is an enum, completed from a static list.
  @ResourceTemplate('genres://{genre}/books', {
    description: 'The books of one genre, one per content',
    complete: { genre: Object.values(Genre) },
  })
  genre(@Param('genre', { enum: Genre }) genre: string): ResourceResult {
    return new ResourceResult(
      this.library.byGenre(genre as Genre).map((b) => ({ uri: `books://${b.id}`, mimeType: 'text/plain', text: `${b.title} (${b.year})` })),
    );
  }

  // The concrete book URIs, listed after the static resources in resources/list.
  @ResourceList()
  books() {
    return this.library.all().map((b) => ({ uri: `books://${b.id}`, name: b.title, mimeType: 'application/json' }));
  }

  @Complete({ resourceTemplate: 'books://{id}', argument: 'id' })
  bookIds(value: string): string[] {
    return this.library.all().map((b) => String(b.id)).filter((id) => id.startsWith(value));
  }
}
