import { MCP_OPTIONS } from '../constants';
import { Container } from '../di';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ModuleImport } from '../interfaces';
import { createServerFactory, isProtocolError } from '../protocol';
import { ToolInvoker, ToolRegistry, type ToolHost } from '../tools';
import { SchemaCompiler } from '../validation';
import { McpApplication } from './mcp-application';
import type { McpModuleOptions } from './mcp-options';
import { stderrLogger } from './stderr-logger';

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
  static async create(root: ModuleImport): Promise<McpApplication> {
    const container = await Container.create(root);
    const options = container.get<McpModuleOptions>(MCP_OPTIONS);
    if (!options) {
      throw new BootstrapError(
        BootstrapErrorCode.McpModuleMissing,
        `Cannot create the MCP server: McpModule is not imported anywhere in the module graph, so the server has no name or version.\n` +
          `Fix: add McpModule.forRoot({ name: 'my-server', version: '1.0.0' }) to the imports of the root module.`,
      );
    }
    const logger = options.logger ?? stderrLogger;
    const compiler = new SchemaCompiler(!options.strictInputValidation);
    const tools = ToolRegistry.discover(toolHosts(container), compiler);
    const invoker = new ToolInvoker({
      maskErrorDetails: options.maskErrorDetails ?? true,
      logger,
      isProtocolError,
    });
    const factory = createServerFactory({
      info: { name: options.name, version: options.version, title: options.title },
      instructions: options.instructions,
      tools,
      invoker,
      logger,
    });
    return new McpApplication(container, factory, tools, logger);
  }
}

function* toolHosts(container: Container): Iterable<ToolHost> {
  for (const record of container.providers()) {
    const instance = record.instance;
    if (typeof instance !== 'object' || instance === null) continue;
    yield { instance, target: instance.constructor };
  }
}
