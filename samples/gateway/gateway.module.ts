import { McpModule, Module, type McpProxyStdio } from 'mcp-reflect';
import { CatalogModule } from './catalog.module';
import { inventoryDocument } from './inventory.openapi';
import { OrdersModule } from './orders.module';
import { SavedSearchesModule } from './saved-searches.provider';

/** Where the gateway finds what it does not define itself. */
export interface GatewayConfig {
  /** The official reference server, started on stdio (main.ts: its installed file, run by `process.execPath`). */
  readonly everything: McpProxyStdio;
  /** The inventory REST API (main.ts starts inventory.api.ts when INVENTORY_URL is not set), e.g. http://127.0.0.1:4000/v1. */
  readonly inventoryUrl: string;
}

/**
 * One MCP endpoint in front of everything: two local feature modules under their namespaces (`catalog_…`,
 * `orders_…`), the reference server proxied (`everything_…`), a REST API from its OpenAPI document
 * (`inventory_…`) and saved searches from a provider of our own (`saved_…`), all through one pipeline.
 */
export function gatewayModule(config: GatewayConfig): Function {
  @Module({
    imports: [
      McpModule.forRoot({ name: 'gateway', version: '1.0.0', instructions: 'A bookshop (catalog_*, orders_*, inventory_*) and the MCP reference server (everything_*).' }),
      CatalogModule,
      OrdersModule,
      SavedSearchesModule,
      McpModule.proxy({ namespace: 'everything', stdio: config.everything }),
      McpModule.fromOpenApi({ namespace: 'inventory', document: inventoryDocument, baseUrl: config.inventoryUrl }),
    ],
  })
  class GatewayModule {}
  return GatewayModule;
}
