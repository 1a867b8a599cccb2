import { Injectable, ToolError } from 'mcp-reflect';
import { BOOKS, type Book, type Genre, type Loan } from './books';

/** The library's data: books and loans (in memory). */
@Injectable()
export class LibraryService {
  private readonly loans: Loan[] = [];

  all(): readonly Book[] {
    return BOOKS;
  }

  find(id: number): Book {
    const book = BOOKS.find((b) => b.id === id);
    if (!book) throw new ToolError(`No book with id ${id}: the ids are ${BOOKS.map((b) => b.id).join(', ')}.`);
    return book;
  }

  byGenre(genre: Genre): Book[] {
    return BOOKS.filter((b) => b.genre === genre);
  }

  lend(loan: Loan): void {
    this.loans.push(loan);
  }

  currentLoans(): readonly Loan[] {
    return this.loans;
  }
}
