import { McpReflectError } from '../errors';
import { buildApplication, type BuiltApplication } from '../module/mcp-factory';
import { createTestClient, type TestClient } from '../testing';
import { CliError, CliErrorCode } from './cli.error';
import { describe, loadRootModule } from './load-entry';

export interface SessionOptions {
  readonly entry: string;
  readonly moduleName?: string;
}

/**
 * Loads the entry, bootstraps its root module and connects an in-memory SDK client (as createTestClient does),
 * runs `work` with it, then closes the application. While it runs, console.log/info/debug go to stderr so that
 * stdout carries only the command's output.
 */
export async function withClient<T>(options: SessionOptions, work: (client: TestClient) => Promise<T>): Promise<T> {
  const restore = consoleToStderr();
  try {
    const root = loadRootModule(options.entry, options.moduleName);
    const { app, registries } = await bootstrap(root, options.entry);
    // As app.listen() would: the CLI runs this one application.
    registries.warnUnprovidedComponents?.();
    const client = await createTestClient(app);
    try {
      return await work(client);
    } finally {
      await client.close();
    }
  } finally {
    restore();
  }
}

async function bootstrap(root: Function, entry: string): Promise<BuiltApplication> {
  try {
    return await buildApplication(root as Parameters<typeof buildApplication>[0]);
  } catch (error) {
    // A BootstrapError already names cause and fix: printed as is.
    const message = error instanceof McpReflectError || (error instanceof Error && error.name === 'BootstrapError') ? error.message : `Cannot bootstrap ${root.name} from ${entry}: ${describe(error)}`;
    throw new CliError(CliErrorCode.BootstrapFailed, message, { cause: error });
  }
}

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  return () => Object.assign(console, saved);
}
