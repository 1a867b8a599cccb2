import { parseArgs, type CommandSpec } from './args';
import { CliError, CliErrorCode, usageError } from './cli.error';
import { describe } from './load-entry';
import type { CommandOutput } from './output';
import { createProgress, type CliIo } from './progress';
import { identityOf, withClient } from './session';

export const callSpec: CommandSpec = {
  name: 'call',
  positionals: ['entry', 'tool'],
  options: { subject: 'value', scopes: 'value', args: 'value', json: 'flag', module: 'value', metadata: 'value', quiet: 'flag', help: 'flag' },
};

export const callUsage = `Usage: mcp-reflect call <entry> <tool> [--args '<json object>'] [--json] [--module <Name>] [--metadata <file>] [--subject <id>] [--scopes <a,b>]

Bootstraps the root module exported by <entry> with the generated types the server uses, calls one tool
in-process and prints the result: its structuredContent as JSON when it has some, otherwise its text blocks
as text (other blocks as JSON). Exits with 1 when the result has isError or the call fails, the message on stderr.

Options:
  --args <json>      the tool's arguments, a JSON object (default {})
  --json             print the whole CallToolResult as JSON
  --module <Name>    the exported root module class, when the entry exports several @Module() classes
  --metadata <file>  the module \`mcp-reflect generate\` wrote (default: the one the module passes to
                     McpModule.forRoot, else mcp-metadata next to the entry or above it, within its project)
  --subject <id>     call as this subject (as a verified bearer token would say), for guards and ctx.auth
  --scopes <a,b>     with these scopes (comma- or space-separated), for @Scopes() and guards
  --quiet            no progress line (shown on stderr when loading takes over a second)
  --help             show this help`;

interface Block {
  type: string;
  text?: string;
}

export async function callCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { positionals, options } = parseArgs(argv, callSpec);
  if (options.help) return { stdout: callUsage, exitCode: 0 };
  const [entry, tool] = positionals as [string, string];
  const args = parseToolArguments(options.args);
  const progress = createProgress(io.stderr, { quiet: options.quiet === true, delay: 1000 });
  progress.update(`Loading ${entry}`);
  const session = { entry, moduleName: options.module as string | undefined, metadata: options.metadata as string | undefined, auth: identityOf(options) };
  const result = await withClient(session, async (client) => {
    progress.update(`Calling ${tool}`);
    try {
      return await client.callTool({ name: tool, arguments: args });
    } catch (error) {
      // A name that is not served: say which are (as this caller sees them), so the next try can be right.
      const known = /unknown tool/i.test(describe(error)) ? await toolNames(client).catch(() => undefined) : undefined;
      const served = known ? `\nThe tools ${entry} serves${session.auth ? ' to this caller' : ''}: ${known.join(', ') || 'none'}.` : '';
      throw new CliError(CliErrorCode.CallFailed, `Cannot call tool ${tool}: ${describe(error)}${served}`, { cause: error });
    }
  }).finally(() => progress.done());
  const blocks = (result.content ?? []) as Block[];
  const text = blocks.map((block) => (block.type === 'text' ? block.text : JSON.stringify(block))).join('\n');
  if (result.isError) {
    return { stdout: options.json ? JSON.stringify(result, null, 2) : '', stderr: `Tool ${tool} returned an error: ${text}`, exitCode: 1 };
  }
  if (options.json) return { stdout: JSON.stringify(result, null, 2), exitCode: 0 };
  return { stdout: result.structuredContent !== undefined ? JSON.stringify(result.structuredContent, null, 2) : text, exitCode: 0 };
}

async function toolNames(client: { listTools(params?: { cursor?: string }): Promise<{ tools: { name: string }[]; nextCursor?: string }> }): Promise<string[]> {
  const names: string[] = [];
  for (let cursor: string | undefined, first = true; first || cursor; first = false) {
    const page = await client.listTools(cursor ? { cursor } : undefined);
    names.push(...page.tools.map((t) => t.name));
    cursor = page.nextCursor;
  }
  return names;
}

function parseToolArguments(raw: string | true | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw as string);
  } catch (error) {
    throw usageError(`Invalid --args: ${describe(error)}. Pass the tool's arguments as one JSON object, e.g. --args '{"a": 1}'.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usageError(`Invalid --args: expected a JSON object of arguments, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}. Pass e.g. --args '{"a": 1}'.`);
  }
  return value as Record<string, unknown>;
}
