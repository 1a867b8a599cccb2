import { MCP_OPTIONS } from '../constants';
import { Module } from '../decorators';
import type { DynamicModule } from '../interfaces';
import type { McpModuleOptions } from './mcp-options';

/**
 * Turns the application into an MCP server. Import it once, in the root module.
 *
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] })
 * class AppModule {}
 */
@Module({})
export class McpModule {
  static forRoot(options: McpModuleOptions): DynamicModule {
    return {
      module: McpModule,
      global: true,
      providers: [{ provide: MCP_OPTIONS, useValue: { ...options } }],
      exports: [MCP_OPTIONS],
    };
  }
}
