import { MCP_FEATURE, MCP_OPTIONS } from '../constants';
import { Module } from '../decorators';
import type { DependencyToken, DynamicModule, McpFeatureOptions, ModuleImport } from '../interfaces';
import { McpComponents } from './component-control';
import type { McpModuleOptions } from './mcp-options';
import { checkFeatureOptions } from './namespaces';
import type { McpProxyOptions } from '../proxy';
import type { McpOpenApiOptions } from '../openapi';
import { openApis, proxies } from './optional-parts';
import { stderrLogger } from './stderr-logger';

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
    const named = McpComponents.of(options.name);
    return {
      module: McpModule,
      global: true,
      // `modules`: the server serves these (and what they import), which it imports itself.
      imports: [...(options.modules ?? [])],
      providers: [{ provide: MCP_OPTIONS, useValue: { ...options } }, McpComponents, { provide: named, useClass: McpComponents }],
      exports: [MCP_OPTIONS, McpComponents, named],
    };
  }

  /**
   * Serves the components of the module that imports it under a namespace: tools and prompts as
   * `<namespace>_<name>`, resource URIs and templates as `scheme://<namespace>/…` (docs/composition.md).
   *
   * @example
   * @Module({ imports: [McpModule.forFeature({ namespace: 'weather' })], providers: [ForecastTools] })
   * class WeatherModule {} // ForecastTools.forecast is served as the tool 'weather_forecast'
   */
  static forFeature(options: McpFeatureOptions): DynamicModule {
    const checked = checkFeatureOptions(options, 'McpModule.forFeature');
    return { module: McpFeatureModule, providers: [{ provide: MCP_FEATURE, useValue: checked }] };
  }

  /**
   * Serves a remote MCP server's tools, resources, templates and prompts as this application's, under a
   * namespace, through the application's own pipeline (guards, scopes, interceptors, middleware apply to them
   * as to local components); calls are forwarded with progress and cancellation (docs/composition.md).
   *
   * @example
   * @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.proxy({ namespace: 'docs', url: 'https://docs.example.com/mcp' })] })
   * class GatewayModule {}
   */
  static proxy(options: McpProxyOptions): DynamicModule {
    const { checkProxyOptions, McpProxy } = proxies();
    const checked = checkProxyOptions(options);
    const token = Symbol(`mcp-reflect:proxy:${checked.namespace}`);
    const provider = {
      provide: token,
      useFactory: (components: McpComponents, root: McpModuleOptions) => new McpProxy(checked, components, root.logger ?? stderrLogger),
      // In an application with several servers, the proxy names the one it serves.
      inject: [checked.server !== undefined ? McpComponents.of(checked.server) : McpComponents, MCP_OPTIONS],
    };
    return { module: McpProxyModule, providers: [provider] };
  }

  /**
   * Serves an HTTP API described by an OpenAPI 3.0 or 3.1 document: each operation a tool (a GET may be a
   * resource) under a namespace, through the application's own pipeline; calls go to `baseUrl` alone, with the
   * server's own headers (docs/openapi.md).
   *
   * @example
   * @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.fromOpenApi({ namespace: 'pets', document: './openapi.yaml', baseUrl: 'https://pets.example.com/v1' })] })
   * class GatewayModule {}
   */
  static fromOpenApi(options: McpOpenApiOptions): DynamicModule {
    const { checkOpenApiOptions, McpOpenApi } = openApis();
    const checked = checkOpenApiOptions(options);
    const provider = {
      provide: Symbol(`mcp-reflect:openapi:${checked.namespace}`),
      useFactory: (components: McpComponents, root: McpModuleOptions) => new McpOpenApi(checked, components, root.logger ?? stderrLogger),
      inject: [checked.server !== undefined ? McpComponents.of(checked.server) : McpComponents, MCP_OPTIONS],
    };
    return { module: McpOpenApiModule, providers: [provider] };
  }

  /**
   * Like `forRoot()`, with options computed from other providers (a ConfigService, say); the factory may
   * be async and is awaited at bootstrap.
   *
   * @example
   * McpModule.forRootAsync({
   *   imports: [ConfigModule],
   *   inject: [ConfigService],
   *   useFactory: (config: ConfigService) => ({ name: config.get('NAME'), version: '1.0.0' }),
   * })
   */
  static forRootAsync(options: McpModuleAsyncOptions): DynamicModule {
    return {
      module: McpModule,
      global: true,
      imports: options.imports ?? [],
      providers: [{ provide: MCP_OPTIONS, useFactory: options.useFactory, inject: options.inject ?? [] }, McpComponents],
      exports: [MCP_OPTIONS, McpComponents],
    };
  }
}

/**
 * What `McpModule.forFeature()` imports: it names the namespace of the module importing it (the host reads
 * its `MCP_FEATURE` value from the module's imports) and exports nothing.
 */
@Module({})
export class McpFeatureModule {}

/** What `McpModule.proxy()` imports: the provider of one proxied server. */
@Module({})
export class McpProxyModule {}

/** What `McpModule.fromOpenApi()` imports: the provider of one API. */
@Module({})
export class McpOpenApiModule {}

/** Options of `McpModule.forRootAsync()`. */
export interface McpModuleAsyncOptions {
  /** Modules whose exported providers the factory needs. */
  imports?: ModuleImport[];
  /** Tokens whose instances are passed to `useFactory`, in order. */
  inject?: DependencyToken[];
  useFactory: (...args: any[]) => McpModuleOptions | Promise<McpModuleOptions>;
}
