import { IsBoolean, IsInt, IsString, Max, MinLength, Min } from 'class-validator';
import { Context, Ctx, Field, Injectable, Param, Tool } from 'mcp-reflect';
import type { Book } from './books';
import { LibraryService } from './library.service';

/** The elicitation form: flat primitives; initialisers become the form's defaults. */
export class LoanForm {
  @IsString() @MinLength(2) @Field({ description: 'Your name' }) reader!: string;
  @IsInt() @Min(1) @Max(28) @Field({ description: 'Days, at most 28' }) days = 14;
  @IsBoolean() reminder = true;
}

@Injectable()
export class LibraryTools {
  constructor(private readonly library: LibraryService) {}

  @Tool({ description: 'Borrow a book: asks the user who borrows it and for how long', timeout: 120_000 })
  async borrow(@Param('id', { type: 'integer', description: 'book id' }) id: number, @Ctx() ctx: Context): Promise<string> {
    // Reads before the elicitation are idempotent: they run again each time the call is re-entered.
    const [content] = (await ctx.readResource(`books://${id}`)) as { text: string }[];
    const book = JSON.parse(content.text) as Book;

    const answer = await ctx.elicit(`Borrow "${book.title}"? Fill in the loan.`, LoanForm);
    if (answer.action !== 'accept') return `Not borrowed (${answer.action}).`;

    // Side effects only after the last elicitation: this part runs once.
    const { reader, days, reminder } = answer.content;
    this.library.lend({ bookId: id, reader, days });
    await ctx.notifyResourceUpdated('library://loans');
    await ctx.log.info(`lent book ${id} to ${reader}`);
    return `"${book.title}" is lent to ${reader} for ${days} days${reminder ? ', with a reminder' : ''}.`;
  }
}
