import { All, Controller, Inject, Module, Res, UseGuards, type DynamicModule, type ModuleMetadata, type Provider, type Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { MCP_FEATURE } from '../constants';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { checkFeatureOptions, McpComponents } from '../host';
import { openApis, proxies } from '../host/optional-parts';
import type { McpFeatureOptions } from '../interfaces';
import type { McpProxyOptions } from '../proxy';
import type { McpOpenApiOptions } from '../openapi';
import { MCP_NEST_OPTIONS, type McpNestHttpOptions, type McpNestOptions } from './mcp-nest.options';
import { McpOpenApiProvider, McpProxyProvider, McpService } from './mcp.service';

/**
 * Serves the MCP components of a Nest application: every provider of any module whose class has
 * `@Tool()`, `@Resource()`, `@ResourceTemplate()`, `@ResourceList()`, `@Prompt()`, `@Complete()` or
 * `@UiResource()` (from `mcp-reflect`), with its instances and enhancers from Nest. Import it once, in the
 * root module.
 *
 * @example
 * @Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [WeatherTools] })
 * export class AppModule {}
 */
@Module({})
export class McpModule {
  static forRoot(options: McpNestOptions): DynamicModule {
    return moduleWith({ provide: MCP_NEST_OPTIONS, useValue: { ...options } }, options.http, [...(options.modules ?? [])], options.name);
  }

  /**
   * Serves the MCP components of the module that imports it under a namespace: tools and prompts as
   * `<namespace>_<name>`, resource URIs and templates as `scheme://<namespace>/…` (docs/composition.md).
   *
   * @example
   * @Module({ imports: [McpModule.forFeature({ namespace: 'weather' })], providers: [ForecastTools] })
   * export class WeatherModule {} // ForecastTools.forecast is served as the tool 'weather_forecast'
   */
  static forFeature(options: McpFeatureOptions): DynamicModule {
    return { module: McpFeatureModule, providers: [{ provide: MCP_FEATURE, useValue: checkFeatureOptions(options, 'McpModule.forFeature') }] };
  }

  /**
   * Serves a remote MCP server's tools, resources, templates and prompts as this application's, under a
   * namespace, through the application's own pipeline (Nest's guards, interceptors, pipes and filters apply
   * to them as to local components). Connected once the MCP server is built (docs/composition.md).
   *
   * @example
   * @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.proxy({ namespace: 'docs', url: 'https://docs.example.com/mcp' })] })
   * export class AppModule {}
   */
  static proxy(options: McpProxyOptions): DynamicModule {
    const provider = new McpProxyProvider(proxies().checkProxyOptions(options));
    return { module: McpProxyModule, providers: [{ provide: Symbol(`mcp-reflect:proxy:${provider.options.namespace}`), useValue: provider }] };
  }

  /**
   * Serves an HTTP API described by an OpenAPI 3.0 or 3.1 document: each operation a tool (a GET may be a
   * resource) under a namespace, through the application's own pipeline (Nest's guards, interceptors and
   * filters apply); read once the MCP server is built (docs/openapi.md).
   *
   * @example
   * @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), McpModule.fromOpenApi({ namespace: 'pets', document: './openapi.yaml', baseUrl: 'https://pets.example.com/v1' })] })
   * export class AppModule {}
   */
  static fromOpenApi(options: McpOpenApiOptions): DynamicModule {
    const provider = new McpOpenApiProvider(openApis().checkOpenApiOptions(options));
    return { module: McpOpenApiModule, providers: [{ provide: Symbol(`mcp-reflect:openapi:${provider.options.namespace}`), useValue: provider }] };
  }

  /**
   * Like `forRoot()`, with the options computed from other providers (a ConfigService, say). Where the
   * endpoint is served is static (`http`), since Nest maps routes before any factory runs.
   *
   * @example
   * McpModule.forRootAsync({
   *   imports: [ConfigModule],
   *   inject: [ConfigService],
   *   useFactory: (config: ConfigService) => ({ name: config.get('MCP_NAME'), version: '1.0.0' }),
   * })
   */
  static forRootAsync(options: McpNestAsyncOptions): DynamicModule {
    const provider = {
      provide: MCP_NEST_OPTIONS,
      inject: [...(options.inject ?? [])],
      useFactory: async (...args: unknown[]) => ({ ...(await options.useFactory(...args)), http: options.http }),
    };
    return moduleWith(provider, options.http, options.imports ?? [], undefined);
  }
}

/** What `McpModule.forFeature()` imports: the namespace of the module importing it, read by the Nest host. */
@Module({})
export class McpFeatureModule {}

/** What `McpModule.proxy()` imports: one proxied server, which McpService connects once it has built the MCP server. */
@Module({})
export class McpProxyModule {}

/** What `McpModule.fromOpenApi()` imports: one API, which McpService serves once it has built the MCP server. */
@Module({})
export class McpOpenApiModule {}

/** Options of `McpModule.forRootAsync()`. */
export interface McpNestAsyncOptions {
  /** Modules whose exported providers the factory needs. */
  readonly imports?: ModuleMetadata['imports'];
  /** Tokens whose instances are passed to `useFactory`, in order. */
  readonly inject?: readonly (string | symbol | Function | Type)[];
  useFactory: (...args: any[]) => Omit<McpNestOptions, 'http'> | Promise<Omit<McpNestOptions, 'http'>>;
  /** Where the endpoint is served (see `McpNestOptions.http`). */
  readonly http?: McpNestOptions['http'];
}

function moduleWith(options: Provider, http: McpNestOptions['http'], imports: NonNullable<ModuleMetadata['imports']>, name: string | undefined): DynamicModule {
  // With several servers, each is reached by its name: McpService.of(name), McpComponents.of(name).
  const named: Provider[] = name === undefined ? [] : [{ provide: McpService.of(name), useExisting: McpService }, { provide: McpComponents.of(name), useClass: McpComponents }];
  return {
    module: McpModule,
    global: true,
    imports: [DiscoveryModule, ...imports],
    providers: [options, McpService, McpComponents, ...named],
    controllers: http === false || checkMount(http) === 'server' ? [] : [endpointController(http?.path ?? '/mcp', http?.guards ?? [])],
    exports: [McpService, McpComponents, ...named.map((p) => (p as { provide: symbol }).provide)],
  };
}

/** Where the endpoint is served (`http.mount`), once its options are known to fit it. */
function checkMount(http: McpNestHttpOptions | undefined): 'route' | 'server' {
  const mount = http?.mount ?? 'route';
  const fail = (cause: string, fix: string) => new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot serve the MCP endpoint of McpModule.forRoot(): ${cause}.\nFix: ${fix}.`);
  if (mount !== 'route' && mount !== 'server') throw fail(`http.mount is ${JSON.stringify(mount)}`, "use 'route' (a controller route of the application, the default) or 'server' (ahead of Express or Fastify)");
  if (mount === 'route') {
    if (http?.auth?.server) throw fail("http.auth.server (the authorization server) needs paths outside the endpoint's route, at the origin's root", "serve the endpoint with http: { mount: 'server', auth: { … } }, or run the authorization server outside the Nest application");
    return mount;
  }
  const nestOnly = (['guards', 'identity'] as const).filter((key) => http?.[key] !== undefined);
  if (nestOnly.length > 0) {
    throw fail(
      `with http.mount 'server' the endpoint answers ahead of Nest's HTTP layer, so ${nestOnly.map((key) => `http.${key}`).join(' and ')} would never run`,
      "verify callers with the endpoint's own http.auth (docs/auth.md), or serve the endpoint as a route (mount: 'route', the default) to use Nest guards",
    );
  }
  return mount;
}

/** A controller of the endpoint's route, so Nest's middleware, global prefix, CORS and HTTP guards apply to it. */
function endpointController(path: string, guards: NonNullable<McpNestHttpOptions['guards']>): Type {
  @Controller()
  @UseGuards(...(guards as Type[]))
  class McpEndpointController {
    constructor(@Inject(McpService) private readonly mcp: McpService) {}

    // One parameter, the response: each parameter costs a request a pipe run in Nest's router (issue 45, item 4).
    // The request is the response's: Express's `res.req`, Fastify's `reply.request`, what `@Req()` would give.
    @All(path)
    handle(@Res() res: { req?: unknown; request?: unknown }): Promise<void> {
      const req = res.req ?? res.request;
      if (req === undefined) throw noRequest();
      return this.mcp.serveHttp(req as never, res as never);
    }
  }
  return McpEndpointController;
}

function noRequest(): Error {
  return new Error(
    "Cannot serve the MCP endpoint route: the Nest HTTP adapter's response object names no request (Express's res.req, Fastify's reply.request).\n" +
      "Fix: use @nestjs/platform-express or @nestjs/platform-fastify for the application that serves the endpoint.",
  );
}
