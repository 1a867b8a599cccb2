import { Injectable, McpModule, Module, Param, Resource, Tool } from 'mcp-reflect';

const BOOKS = [
  { isbn: '9780060512750', title: 'The Dispossessed', author: 'Ursula K. Le Guin' },
  { isbn: '9780441478125', title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin' },
  { isbn: '9780553283686', title: 'Hyperion', author: 'Dan Simmons' },
];

/** A local feature: served as `catalog_search` and `books://catalog/all` by its module's namespace. */
@Injectable()
export class CatalogTools {
  @Tool({ description: 'Find books whose title or author contains the text', annotations: { readOnlyHint: true } })
  search(@Param('text', { description: 'part of a title or an author', schema: { minLength: 1 } }) text: string): { books: typeof BOOKS } {
    const needle = text.toLowerCase();
    return { books: BOOKS.filter((b) => `${b.title} ${b.author}`.toLowerCase().includes(needle)) };
  }

  @Resource('books://all', { mimeType: 'application/json', description: 'Every book in the catalogue' })
  all(): string {
    return JSON.stringify(BOOKS);
  }
}

@Module({ imports: [McpModule.forFeature({ namespace: 'catalog' })], providers: [CatalogTools], exports: [CatalogTools] })
export class CatalogModule {}
