import { CONTEXT, MCP_OPTIONS } from '../constants';
import { Context } from '../context';
import { Container } from '../di';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { InjectionToken, ModuleImport, Provider } from '../interfaces';
import { createServerFactory, isProtocolError } from '../protocol';
import { ToolInvoker, ToolRegistry } from '../tools';
import { SchemaCompiler } from '../validation';
import { McpApplication } from './mcp-application';
import type { McpModuleOptions } from './mcp-options';
import { stderrLogger } from './stderr-logger';
import { collectToolHosts } from './tool-hosts';

/**
 * Bootstraps an application from its root module: scans the module graph once, builds every provider,
 * discovers every `@Tool()` method and compiles its schema, validator and result converter. Any error in
 * the user's code surfaces here, before a client connects.
 *
 * @example
 * const app = await McpFactory.create(AppModule);
 * await app.listen({ transport: 'stdio' });
 */
export class McpFactory {
  static async create(root: ModuleImport, options: McpFactoryOptions = {}): Promise<McpApplication> {
    const container = await Container.create(root, {
      overrides: options.overrides,
      globals: [
        // The request's Context, injectable into request-scoped providers by its class or the CONTEXT token.
        { provide: Context, useRequestValue: 'context' } as unknown as Provider,
        { provide: CONTEXT, useRequestValue: 'context' } as unknown as Provider,
      ],
    });
    const settings = container.get<McpModuleOptions>(MCP_OPTIONS);
    if (!settings) {
      throw new BootstrapError(
        BootstrapErrorCode.McpModuleMissing,
        `Cannot create the MCP server: McpModule is not imported anywhere in the module graph, so the server has no name or version.\n` +
          `Fix: add McpModule.forRoot({ name: 'my-server', version: '1.0.0' }) to the imports of the root module.`,
      );
    }
    await container.callHook('onModuleInit');
    const logger = settings.logger ?? stderrLogger;
    const compiler = new SchemaCompiler(!settings.strictInputValidation);
    const tools = ToolRegistry.discover(await collectToolHosts(container), compiler);
    const invoker = new ToolInvoker({
      maskErrorDetails: settings.maskErrorDetails ?? true,
      logger,
      isProtocolError,
    });
    const factory = createServerFactory({
      info: { name: settings.name, version: settings.version, title: settings.title },
      instructions: settings.instructions,
      tools,
      invoker,
      logger,
    });
    const app = new McpApplication(container, factory, tools, logger);
    await container.callHook('onApplicationBootstrap');
    return app;
  }
}

/** Options of `McpFactory.create()`. */
export interface McpFactoryOptions {
  /** Providers that replace those with the same token anywhere in the graph (what `Test` overrides use). */
  overrides?: ReadonlyMap<InjectionToken, Provider>;
}
