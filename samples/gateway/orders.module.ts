import { Injectable, McpModule, Module, Param, Prompt, Tool, ToolError } from 'mcp-reflect';

/** Another local feature, under the namespace `orders`: `orders_place`, `orders_list`, the prompt `orders_confirm`. */
@Injectable()
export class OrdersService {
  private readonly orders: { id: number; isbn: string; copies: number }[] = [];

  place(isbn: string, copies: number): { id: number; isbn: string; copies: number } {
    const order = { id: this.orders.length + 1, isbn, copies };
    this.orders.push(order);
    return order;
  }

  list(): readonly { id: number; isbn: string; copies: number }[] {
    return this.orders;
  }
}

@Injectable()
export class OrderTools {
  constructor(private readonly orders: OrdersService) {}

  @Tool({ description: 'Order copies of a book by its ISBN' })
  place(@Param('isbn', { schema: { pattern: '^\\d{13}$' } }) isbn: string, @Param('copies', { type: 'integer', schema: { minimum: 1, maximum: 10 } }) copies: number): string {
    if (isbn.startsWith('000')) throw new ToolError(`No book has the ISBN ${isbn}: search the catalogue first (catalog_search).`);
    const order = this.orders.place(isbn, copies);
    return `Order ${order.id}: ${copies} × ${isbn}`;
  }

  @Tool({ description: 'The orders placed so far', annotations: { readOnlyHint: true } })
  list(): string {
    return JSON.stringify(this.orders.list());
  }

  @Prompt({ description: 'Ask the model to confirm an order before placing it' })
  confirm(@Param() isbn: string): string {
    return `Before ordering ${isbn}, look it up with catalog_search and confirm the title with the user.`;
  }
}

@Module({ imports: [McpModule.forFeature({ namespace: 'orders' })], providers: [OrdersService, OrderTools] })
export class OrdersModule {}
