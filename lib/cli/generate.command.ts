import path from 'node:path';
import { existsSync } from 'node:fs';
import { GeneratorError, generateMetadata, isCurrent, watchProject, writeIfChanged, type GenerateResult } from '../generator';
import { parseArgs, type CommandSpec } from './args';
import type { CommandOutput } from './output';
import { createProgress, type CliIo } from './progress';

export const generateSpec: CommandSpec = {
  name: 'generate',
  positionals: [],
  options: { project: 'value', out: 'value', check: 'flag', watch: 'flag', quiet: 'flag', help: 'flag' },
};

export const generateUsage = `Usage: mcp-reflect generate [--project tsconfig.json] [--out src/mcp-metadata.ts] [--check | --watch] [--quiet]

Reads the project with its TypeScript 7 compiler and writes one module with the full types of every
@Tool/@Resource/@ResourceTemplate/@Prompt/@Complete method and of every DTO class they reach (literal
unions, optional parameters and defaults, array items, Records, interfaces, nullable types, JSDoc).
Load it with McpFactory.create(AppModule, { metadata }) or McpModule.forRoot({ metadata }). See docs/types.md.

Options:
  --project <file>  the tsconfig.json to read (default ./tsconfig.json)
  --out <file>      the module to write (relative to the working folder): .ts, .mts, .js (CommonJS), .mjs or .json
                    (default src/mcp-metadata.ts when src/ exists, else mcp-metadata.ts)
  --check           write nothing; exit 1 when the file is missing or stale (for CI)
  --watch           regenerate whenever a TypeScript file of the project changes
  --quiet           print only errors
  --help            show this help`;

const generator = `mcp-reflect@${(require('../../package.json') as { version: string }).version}`;

export async function generateCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { options } = parseArgs(argv, generateSpec);
  if (options.help) return { stdout: generateUsage, exitCode: 0 };
  if (options.check && options.watch) return { stdout: '', stderr: '--check and --watch do not go together.\nRun `mcp-reflect generate --help` for usage.', exitCode: 2 };
  const quiet = options.quiet === true;
  const progress = createProgress(io.stderr, { quiet, delay: 500 });
  const settings = {
    project: typeof options.project === 'string' ? options.project : 'tsconfig.json',
    out: options.out as string | undefined,
    generator,
    onProgress: options.watch ? undefined : (step: string) => progress.update(step),
  };
  try {
    if (options.watch) return await watching(settings, quiet);
    const result = await generateMetadata(settings).finally(() => progress.done());
    const where = path.relative(process.cwd(), result.out) || result.out;
    const warnings = result.warnings.map((w) => `warning: ${w}`).join('\n');
    if (options.check) {
      if (isCurrent(result)) return { stdout: quiet ? '' : `${where} is up to date (${summary(result)}).`, stderr: warnings, exitCode: 0 };
      return {
        stdout: '',
        stderr: `${where} is ${existsSync(result.out) ? 'stale: the sources changed since it was generated' : 'missing'}.\nFix: run \`npx mcp-reflect generate\` and commit the file.`,
        exitCode: 1,
      };
    }
    const changed = writeIfChanged(result);
    return { stdout: quiet ? '' : `${changed ? 'Wrote' : 'Unchanged:'} ${where} (${summary(result)}).`, stderr: warnings, exitCode: 0 };
  } catch (error) {
    if (error instanceof GeneratorError) return { stdout: '', stderr: `mcp-reflect generate: ${error.message}`, exitCode: error.exitCode };
    throw error;
  }
}

function summary(result: GenerateResult): string {
  return `${result.methods} component method${result.methods === 1 ? '' : 's'}, ${result.classes} class${result.classes === 1 ? '' : 'es'}, ${result.milliseconds} ms`;
}

/** Runs until SIGINT/SIGTERM, one line per run on stderr. */
function watching(settings: { project: string; out?: string; generator: string }, quiet: boolean): Promise<CommandOutput> {
  return new Promise((resolve) => {
    const stop = watchProject(settings, (result) => {
      if (result instanceof Error) process.stderr.write(`mcp-reflect generate: ${result.message}\n`);
      else if (!quiet) process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${path.relative(process.cwd(), result.out)} (${summary(result)})\n`);
    });
    const finish = () => {
      stop();
      resolve({ stdout: '', exitCode: 0 });
    };
    process.once('SIGINT', finish);
    process.once('SIGTERM', finish);
  });
}
