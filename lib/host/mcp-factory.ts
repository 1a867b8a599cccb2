import type { ModuleImport } from '../interfaces';
import type { McpApplication } from './mcp-application';
import { composeApplication, type BuildOptions, type BuiltApplication, type McpFactoryOptions } from './compose';
import { NativeHost } from './native/native-host';

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
    return (await buildApplication(root, options)).app;
  }
}

/** @internal What `McpFactory.create()` does, handing back the application's registries too: on the standalone host. */
export async function buildApplication(root: ModuleImport, options: BuildOptions = {}): Promise<BuiltApplication> {
  return composeApplication(await NativeHost.create(root, { overrides: options.overrides }), options);
}

export type { BuildOptions, BuiltApplication, McpFactoryOptions };
