import { McpReflectError } from '../errors';
import { buildApplication } from '../host/mcp-factory';
import type { BuildOptions, BuiltApplication } from '../host';
import { CliError, CliErrorCode } from './cli.error';
import { describe, type RootModule } from './load-entry';

/** The build options the commands pass: the generated types (given, or found for the entry) and the validators recorder. */
export type CliBuildOptions = Pick<BuildOptions, 'metadata' | 'fallbackMetadata' | 'recordValidators'>;

/** An application the CLI opened, whichever the kind of its root module; `close()` closes all of it. */
export interface OpenedApplication extends BuiltApplication {
  close(): Promise<void>;
}

/**
 * Bootstraps a root module as the commands run it: mcp-reflect's own on the standalone container
 * (`McpFactory.create()`), a Nest one in a Nest application context (lib/nest/cli-application.ts), loaded only
 * then so that the CLI never loads @nestjs/* for a standalone application. Either way the result is the same
 * MCP application, so inspect, call, validators and dev run alike on both. A failure is a CliError saying why.
 */
export async function openApplication(root: RootModule, entry: string, build: CliBuildOptions): Promise<OpenedApplication> {
  try {
    if (root.kind === 'nest') return await nestHost().openNestApplication(root.module, build);
    const built = await buildApplication(root.module as Parameters<typeof buildApplication>[0], build);
    return { ...built, close: () => built.app.close() };
  } catch (error) {
    if (error instanceof CliError) throw error; // the found metadata file could not be loaded
    // A BootstrapError already names cause and fix: printed as is.
    const named = error instanceof McpReflectError || (error instanceof Error && error.name === 'BootstrapError');
    throw new CliError(CliErrorCode.BootstrapFailed, named ? (error as Error).message : `Cannot bootstrap ${root.module.name} from ${entry}: ${describe(error)}`, { cause: error });
  }
}

/**
 * mcp-reflect/nest's boot of a Nest root module, from this same copy of mcp-reflect (the copy whose McpModule the
 * application imports when the CLI is the project's own `npx mcp-reflect`). Its peer check names what to install
 * when the project has no Nest.
 */
function nestHost(): typeof import('../nest/cli-application') {
  return require('../nest/cli-application') as typeof import('../nest/cli-application');
}
