import { MCP_OPTIONS } from '../constants';
import { McpFactory } from '../host';
import type { McpModuleOptions } from '../host/mcp-options';
import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode } from './cli.error';
import { describe, loadRootModule } from './load-entry';
import { findMetadataFile, loadMetadataFile } from './metadata-file';
import type { CommandOutput } from './output';
import type { CliIo } from './progress';

export const workerSpec: CommandSpec = { name: 'worker', positionals: ['entry'], options: { module: 'value', metadata: 'value', help: 'flag' } };

export const workerUsage = `Usage: mcp-reflect worker <entry> [--module <Name>] [--metadata <file>]

Runs the tasks of a durable queue, and serves nothing: bootstraps the root module of <entry> (with the generated
types, as inspect does), whose McpModule.forRoot({ tasks: { queue, store } }) names the queue (RedisTaskQueue)
and the task store shared with the servers (docs/tasks.md#workers). It takes runs until Ctrl-C (or SIGTERM),
then lets the runs it holds finish or hands them back, and exits.

Options:
  --module <Name>    the exported root module class, when the entry exports several @Module() classes
  --metadata <file>  the generated types to load (default: found as inspect finds them)
  --help             show this help`;

export async function workerCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { positionals, options } = parseArgs(argv, workerSpec);
  if (options.help) return { stdout: workerUsage, exitCode: 0 };
  const entry = positionals[0]!;
  const { kind, module: root } = loadRootModule(entry, typeof options.module === 'string' ? options.module : undefined);
  if (kind === 'nest') {
    throw new CliError(
      CliErrorCode.BootstrapFailed,
      `Cannot run ${root.name} as a worker: it is a Nest module, and mcp-reflect worker runs standalone applications (@Module() of 'mcp-reflect').\nFix: in a Nest application the queue's worker runs inside the application itself (McpModule.forRoot({ tasks: { queue, store } }) of 'mcp-reflect/nest'): boot it with NestFactory.createApplicationContext(AppModule) in a main.ts of your own, then call await app.get(McpService).work(), which starts the worker (docs/nestjs.md#an-init-that-fails).`,
    );
  }
  const file = typeof options.metadata === 'string' ? options.metadata : findMetadataFile(entry);
  const metadata = file ? loadMetadataFile(file, typeof options.metadata === 'string') : undefined;
  let app: Awaited<ReturnType<typeof McpFactory.create>>;
  try {
    app = await McpFactory.create(root as never, metadata ? { metadata: metadata as never } : {});
  } catch (error) {
    throw new CliError(CliErrorCode.BootstrapFailed, error instanceof Error && error.name === 'BootstrapError' ? error.message : `Cannot bootstrap ${root.name} from ${entry}: ${describe(error)}`, { cause: error });
  }
  const tasks = (app.get(MCP_OPTIONS) as McpModuleOptions | undefined)?.tasks;
  if (!tasks?.queue || tasks.worker === false) {
    await app.close();
    throw new CliError(
      CliErrorCode.BootstrapFailed,
      `Cannot run ${root.name} as a worker: ${tasks?.queue ? 'its tasks.worker is false' : 'it names no durable queue'}.\nFix: give McpModule.forRoot({ tasks: { queue: new RedisTaskQueue({ connection }), store: new RedisTaskStore(redis) } }) (mcp-reflect/redis), the queue and store its servers use.`,
    );
  }
  io.stderr.write(`[mcp-reflect worker] ${root.name} takes tasks from its queue; Ctrl-C stops\n`);
  return new Promise<CommandOutput>((resolve) => {
    const stop = () => {
      io.stderr.write('[mcp-reflect worker] stopping\n');
      void app.close().then(() => resolve({ stdout: '', exitCode: 0 }));
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
