import type { ModuleImport } from '../interfaces';
import type { McpApplication } from './mcp-application';
import { composeApplication, type BuildOptions, type BuiltApplication, type McpFactoryOptions } from './compose';
import { NativeHost } from './native/native-host';
import { McpServers } from './mcp-servers';

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

  /**
   * Bootstraps every server of an application that declares several (`McpModule.forRoot({ name, modules })`
   * more than once): one container for all, so providers are shared; each server with its own options and
   * components. One server works too.
   *
   * @example
   * const servers = await McpFactory.createServers(AppModule);
   * await servers.get('admin').listen({ transport: 'stdio' });
   */
  static async createServers(root: ModuleImport, options: McpFactoryOptions = {}): Promise<McpServers> {
    const hosts = await NativeHost.createAll(root, { overrides: options.overrides });
    const served = new Set<Function>(); // one application: a class served by any of its servers is provided
    const built = await Promise.allSettled(
      hosts.map((host) =>
        composeApplication(host, { ...options, served }).catch((error: unknown) => {
          host.failed(error);
          throw error;
        }),
      ),
    );
    const apps = built.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value.app] : []));
    const failure = built.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (failure) {
      await Promise.allSettled(apps.map((app) => app.close()));
      throw failure.reason;
    }
    const names = hosts.map((host) => host.options.name);
    if (apps.length > 1) {
      const message =
        `${hosts[0].name} serves several MCP servers (${names.map((n) => `'${n}'`).join(', ')}), and McpComponents does not say which one it controls.\n` +
        `Fix: inject the McpComponents of one server: @Inject(McpComponents.of('${names[0]}')).`;
      for (const app of apps) app.refuseUnnamedComponents(message);
    }
    return new McpServers(names.map((name, i) => [name, apps[i]] as const));
  }
}

/** @internal What `McpFactory.create()` does, handing back the application's registries too: on the standalone host. */
export async function buildApplication(root: ModuleImport, options: BuildOptions = {}): Promise<BuiltApplication> {
  return composeApplication(await NativeHost.create(root, { overrides: options.overrides }), options);
}

export type { McpFactoryOptions };
