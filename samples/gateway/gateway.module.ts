import { McpModule, Module, type McpProxyStdio } from 'mcp-reflect';
import { CatalogModule } from './catalog.module';
import { OrdersModule } from './orders.module';

/** Where the gateway finds what it does not define itself. */
export interface GatewayConfig {
  /** The official reference server, started on stdio (main.ts: `npx -y @modelcontextprotocol/server-everything stdio`). */
  readonly everything: McpProxyStdio;
}

/**
 * One MCP endpoint in front of everything: two local feature modules under their namespaces (`catalog_…`,
 * `orders_…`) and the reference server proxied (`everything_…`), all through one pipeline.
 */
export function gatewayModule(config: GatewayConfig): Function {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'gateway', version: '1.0.0', instructions: 'A bookshop (catalog_*, orders_*) and the MCP reference server (everything_*).' }),
      CatalogModule,
      OrdersModule,
      McpModule.proxy({ namespace: 'everything', stdio: config.everything }),
    ],
  })
  class GatewayModule {}
  return GatewayModule;
}
