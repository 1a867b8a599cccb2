import 'reflect-metadata';
import { Context, Ctx, Injectable, McpModule, Module, Param, RequestError, RpcCode, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

@Injectable()
class Orders {
  @Tool()
  cancel(@Param() id: number): string {
    throw new RequestError(RpcCode.InvalidParams, `Order ${id} cannot be cancelled: it has shipped.`, { id });
  }

  @Tool()
  async refund(@Param() id: number): Promise<string> {
    await Promise.resolve();
    throw new RequestError(RpcCode.InvalidRequest, `Refunds are closed today (order ${id}).`);
  }

  @Tool()
  async track(@Param() id: number, @Ctx() ctx: Context): Promise<string> {
    await ctx.log.info(`tracking ${id}`);
    throw new RequestError(RpcCode.InvalidParams, `No tracking for order ${id}.`);
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'orders', version: '1.0.0' })], providers: [Orders] })
class OrdersModule {}

/** A tool that throws a RequestError answers with that JSON-RPC error (not a masked isError result). */
describe.each(['2025-11-25', '2026-07-28'] as const)('RequestError thrown by a tool (%s)', (protocolVersion) => {
  it.each([
    ['cancel', -32602, 'Order 7 cannot be cancelled: it has shipped.'],
    ['refund', -32600, 'Refunds are closed today (order 7).'],
    ['track', -32602, 'No tracking for order 7.'],
  ])('%s answers JSON-RPC %s', async (name, code, message) => {
    const client = await createTestClient(OrdersModule, { protocolVersion });
    try {
      await expect(client.callTool({ name, arguments: { id: 7 } })).rejects.toMatchObject({ code, message: expect.stringContaining(message) });
    } finally {
      await client.close();
    }
  });
});
