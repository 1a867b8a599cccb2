import { Context, Ctx, Injectable, Param, Tool, ToolError } from 'mcp-reflect';

/** A shopping cart kept between the calls of one user (`ctx.state`, docs/state.md). */
@Injectable()
export class CartTools {
  @Tool({ description: 'Adds an item to your cart and shows the cart.' })
  async addToCart(@Param({ schema: { minLength: 1, maxLength: 100 } }) item: string, @Ctx() ctx: Context): Promise<string[]> {
    const cart = [...((await ctx.state.get<string[]>('cart')) ?? []), item];
    if (cart.length > 50) throw new ToolError('Your cart holds 50 items, the most it may: check out or remove some first.');
    // A cart nobody touched for a day is forgotten.
    await ctx.state.set('cart', cart, { ttlMs: 86_400_000 });
    return cart;
  }

  @Tool({ description: 'Shows your cart.', annotations: { readOnlyHint: true } })
  async showCart(@Ctx() ctx: Context): Promise<string[]> {
    return (await ctx.state.get<string[]>('cart')) ?? [];
  }

  @Tool({ description: 'Empties your cart.' })
  async checkOut(@Ctx() ctx: Context): Promise<string> {
    const cart = (await ctx.state.get<string[]>('cart')) ?? [];
    await ctx.state.delete('cart');
    return cart.length === 0 ? 'Your cart was empty.' : `Ordered ${cart.length} item(s): ${cart.join(', ')}.`;
  }
}
