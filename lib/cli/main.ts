#!/usr/bin/env node
import { callCommand, callUsage } from './call.command';
import { devCommand, devUsage } from './dev.command';
import { CliError, usageError } from './cli.error';
import { generateCommand, generateUsage } from './generate.command';
import { inspectCommand, inspectUsage } from './inspect.command';
import { installCommand, installUsage } from './install.command';
import { newCommand, newUsage } from './new.command';
import { serverJsonCommand, serverJsonUsage } from './server-json.command';
import { validatorsCommand, validatorsUsage } from './validators.command';
import { workerCommand, workerUsage } from './worker.command';
import type { CommandOutput } from './output';
import type { CliIo } from './progress';

const usage = `Usage: mcp-reflect <command> [options]

Commands:
  inspect <entry>         list the tools, resources, resource templates and prompts of a module
  call <entry> <tool>     call one tool in-process and print its result
  dev <entry>             serve a module over HTTP and restart it on every change (with the generated types)
  new <dir>               create a project: a stdio server, a sample tool and its spec (TypeScript 7, jest)
  generate                write the full TypeScript types of the components into one module (docs/types.md)
  install <host> <entry>  register a built server (or a URL) in Claude Desktop, Claude Code, Cursor, VS Code, …
  worker <entry>          run the tasks of a durable queue, serving nothing (docs/tasks.md#workers)
  validators <entry>      write the argument and output validators as precompiled code (docs/runtimes.md)
  server-json             write the MCP Registry's server.json (npm package over stdio, or --remote <url>)

<entry> is a .js file (or a .ts file, compiled with the project's @swc/core) that exports the root module: a
@Module() of 'mcp-reflect', or a Nest @Module() importing McpModule of 'mcp-reflect/nest' (docs/cli.md).
Run \`mcp-reflect <command> --help\` for the options of a command.`;

type Command = (argv: readonly string[], io: CliIo) => Promise<CommandOutput>;
const commands: Record<string, { run: Command; usage: string }> = {
  inspect: { run: inspectCommand, usage: inspectUsage },
  call: { run: callCommand, usage: callUsage },
  new: { run: newCommand, usage: newUsage },
  generate: { run: generateCommand, usage: generateUsage },
  validators: { run: validatorsCommand, usage: validatorsUsage },
  install: { run: installCommand, usage: installUsage },
  dev: { run: devCommand, usage: devUsage },
  worker: { run: workerCommand, usage: workerUsage },
  'server-json': { run: serverJsonCommand, usage: serverJsonUsage },
};

/**
 * Runs the CLI on `argv` (without `node` and the script) and returns what to print and the exit code; a progress
 * line, while a command runs, goes to `io.stderr`.
 */
export async function runCli(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) return { stdout: '', stderr: usage, exitCode: 2 };
    if (command === '--help' || command === '-h' || command === 'help') {
      const topic = rest[0] !== undefined && Object.hasOwn(commands, rest[0]) ? commands[rest[0]]!.usage : usage;
      return { stdout: topic, exitCode: 0 };
    }
    if (!Object.hasOwn(commands, command)) throw usageError(`Unknown command ${command}: mcp-reflect knows ${knownCommands()}.`);
    return await commands[command]!.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) return { stdout: '', stderr: error.message, exitCode: error.exitCode };
    const message = error instanceof Error ? error.message : String(error);
    return { stdout: '', stderr: `mcp-reflect ${command} failed: ${message}`, exitCode: 1 };
  }
}

function knownCommands(): string {
  const names = Object.keys(commands);
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/** The bin: runs the command of process.argv, writes its output and exits (the bundled bin's shim calls it, tools/bundle.js). */
export async function main(): Promise<void> {
  const { stdout, stderr, exitCode } = await runCli(process.argv.slice(2));
  if (stderr) process.stderr.write(`${stderr}\n`);
  // Exit once stdout is flushed: the application is closed, but its code may have left timers behind.
  process.stdout.write(stdout ? `${stdout}\n` : '', () => process.exit(exitCode));
}

if (require.main === module) void main();
