#!/usr/bin/env node
import { callCommand, callUsage } from './call.command';
import { CliError, usageError } from './cli.error';
import { inspectCommand, inspectUsage } from './inspect.command';
import type { CommandOutput } from './output';

const usage = `Usage: mcp-reflect <command> [options]

Commands:
  inspect <entry>         list the tools, resources, resource templates and prompts of a module
  call <entry> <tool>     call one tool in-process and print its result

<entry> is a .js file (or a .ts file, compiled with the project's @swc/core) that exports the root module.
Run \`mcp-reflect <command> --help\` for the options of a command.`;

const commands: Record<string, (argv: readonly string[]) => Promise<CommandOutput>> = { inspect: inspectCommand, call: callCommand };

/** Runs the CLI on `argv` (without `node` and the script) and returns what to print and the exit code. */
export async function runCli(argv: readonly string[]): Promise<CommandOutput> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined) return { stdout: '', stderr: usage, exitCode: 2 };
    if (command === '--help' || command === '-h' || command === 'help') {
      const topic = rest[0] === 'inspect' ? inspectUsage : rest[0] === 'call' ? callUsage : usage;
      return { stdout: topic, exitCode: 0 };
    }
    const run = commands[command];
    if (!run) throw usageError(`Unknown command ${command}: mcp-reflect knows ${Object.keys(commands).join(' and ')}.`);
    return await run(rest);
  } catch (error) {
    if (error instanceof CliError) return { stdout: '', stderr: error.message, exitCode: error.exitCode };
    const message = error instanceof Error ? error.message : String(error);
    return { stdout: '', stderr: `mcp-reflect ${command} failed: ${message}`, exitCode: 1 };
  }
}

async function main(): Promise<void> {
  const { stdout, stderr, exitCode } = await runCli(process.argv.slice(2));
  if (stderr) process.stderr.write(`${stderr}\n`);
  // Exit once stdout is flushed: the application is closed, but its code may have left timers behind.
  process.stdout.write(stdout ? `${stdout}\n` : '', () => process.exit(exitCode));
}

if (require.main === module) void main();
