import 'reflect-metadata';
import { Context, Ctx, Injectable, McpModule, Module, Param, Tool, type StateOptions } from 'mcp-reflect';

/** Tools that read and write the caller's state. */
@Injectable()
class Cart {
  @Tool()
  async add(@Param() item: string, @Ctx() ctx: Context): Promise<string> {
    const cart = [...((await ctx.state.get<string[]>('cart')) ?? []), item];
    await ctx.state.set('cart', cart);
    return cart.join(',');
  }

  @Tool()
  async show(@Ctx() ctx: Context): Promise<string> {
    return JSON.stringify((await ctx.state.get('cart')) ?? null);
  }

  @Tool()
  async clear(@Ctx() ctx: Context): Promise<string> {
    return String(await ctx.state.delete('cart'));
  }

  @Tool()
  async keep(@Param() key: string, @Param() text: string, @Ctx() ctx: Context): Promise<string> {
    await ctx.state.set(key, { text });
    return 'kept';
  }
}

/** A module whose tools keep the caller's state in `state`. */
export function stateModule(state?: StateOptions, extra: Record<string, unknown> = {}): new () => unknown {
  @Module({ imports: [McpModule.forRoot({ name: 'state', version: '1.0.0', ...(state ? { state } : {}), ...extra })], providers: [Cart] })
  class StateModule {}
  return StateModule;
}
