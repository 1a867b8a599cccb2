export enum Genre {
  Fiction = 'fiction',
  Science = 'science',
  History = 'history',
}

export interface Book {
  id: number;
  title: string;
  author: string;
  genre: Genre;
  year: number;
}

export interface Loan {
  bookId: number;
  reader: string;
  days: number;
}

export const BOOKS: readonly Book[] = [
  { id: 1, title: 'The Left Hand of Darkness', author: 'Ursula K. Le Guin', genre: Genre.Fiction, year: 1969 },
  { id: 2, title: 'A Brief History of Time', author: 'Stephen Hawking', genre: Genre.Science, year: 1988 },
  { id: 3, title: 'The Guns of August', author: 'Barbara Tuchman', genre: Genre.History, year: 1962 },
  { id: 12, title: 'Solaris', author: 'Stanisław Lem', genre: Genre.Fiction, year: 1961 },
];

/** A 1×1 transparent PNG, standing in for a cover image. */
export const COVER_PNG = Uint8Array.from(
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64'),
);
