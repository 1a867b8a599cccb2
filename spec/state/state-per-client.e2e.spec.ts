import 'reflect-metadata';
import { Ctx, Injectable, InMemoryStateStore, McpFactory, McpModule, Module, Param, Tool, type Context } from 'mcp-reflect';
import { initializeBody, JSON_AND_SSE, messagesOf, rawRequest } from '../support/http-helpers';

@Injectable()
class CartTools {
  @Tool()
  async keep(@Param() size: number, @Ctx() ctx: Context): Promise<string> {
    await ctx.state.set('cart', 'x'.repeat(size));
    return 'kept';
  }
}

/** A 2025 session opened from `address`, and one call of `keep` in it: the tool's answer. */
async function keepFrom(url: string, address: string, size: number): Promise<{ isError?: boolean; text: string }> {
  const init = await rawRequest(url, { headers: JSON_AND_SSE, body: initializeBody(), localAddress: address });
  const session = init.headers['mcp-session-id'] as string;
  const headers = { ...JSON_AND_SSE, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }), localAddress: address });
  const call = await rawRequest(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'keep', arguments: { size } } }), localAddress: address });
  const result = messagesOf(call.body)[0].result as { isError?: boolean; content: { text: string }[] };
  return { ...(result.isError ? { isError: true } : {}), text: result.content[0].text };
}

/** Issue 38, siblings: the state store was bounded per owner and in all, so one address opening sessions filled it for everyone. */
describe('ctx.state in memory is bounded per client too', () => {
  it('the sessions of one address share a quarter of the store; another address keeps its room', async () => {
    @Module({ imports: [McpModule.forRoot({ name: 'carts', version: '1.0.0', state: { store: new InMemoryStateStore({ maxBytes: 1024 * 1024, maxBytesPerOwner: 200 * 1024 }) } })], providers: [CartTools] })
    class CartModule {}
    const app = await McpFactory.create(CartModule);
    await app.listen({ transport: 'http', port: 0 });
    const url = await app.getUrl();
    try {
      const flood: { isError?: boolean; text: string }[] = [];
      for (let i = 0; i < 8; i++) flood.push(await keepFrom(url, '127.0.0.2', 120 * 1024));
      expect(flood.filter((r) => !r.isError)).toHaveLength(2);
      expect(flood[2]).toEqual({ isError: true, text: 'Cannot keep this value: the callers from this address keep 262144 bytes of state together, the most they may. Delete keys they no longer need (ctx.state.delete), or end sessions no longer used.' });
      expect(await keepFrom(url, '127.0.0.3', 120 * 1024)).toEqual({ text: 'kept' });
    } finally {
      await app.close();
    }
  });
});
