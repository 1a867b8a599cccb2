import { parseArgs, type CommandSpec } from './args';
import type { CommandOutput } from './output';
import { createProgress, type CliIo } from './progress';
import { withClient } from './session';

export const inspectSpec: CommandSpec = { name: 'inspect', positionals: ['entry'], options: { json: 'flag', module: 'value', quiet: 'flag', help: 'flag' } };

export const inspectUsage = `Usage: mcp-reflect inspect <entry> [--json] [--module <Name>]

Bootstraps the root module exported by <entry> and lists every tool (name, description, input and output
schema), resource, resource template and prompt it serves. A class with component decorators that no module
provides is named on stderr.

Options:
  --json           print one JSON document { tools, resources, resourceTemplates, prompts }, as the lists return them
  --module <Name>  the exported root module class, when the entry exports several @Module() classes
  --quiet          no progress line (shown on stderr when loading takes over a second)
  --help           show this help`;

interface Catalogue {
  tools: Listed[];
  resources: Listed[];
  resourceTemplates: Listed[];
  prompts: Listed[];
}
type Listed = { name: string; description?: string; [key: string]: unknown };
type Page = { nextCursor?: string };

export async function inspectCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { positionals, options } = parseArgs(argv, inspectSpec);
  if (options.help) return { stdout: inspectUsage, exitCode: 0 };
  const entry = positionals[0]!;
  // Shown only when loading takes over a second (a require() of a big entry blocks: the line shows right after).
  const progress = createProgress(io.stderr, { quiet: options.quiet === true, delay: 1000 });
  progress.update(`Loading ${entry}`);
  const catalogue = await withClient({ entry, moduleName: options.module as string | undefined }, async (client) => {
    progress.update(`Listing the components of ${entry}`);
    const capabilities = client.getServerCapabilities() ?? {};
    const all = async <P extends Page>(list: (cursor?: string) => Promise<P>, pick: (page: P) => Listed[]) => {
      const items: Listed[] = [];
      for (let cursor: string | undefined, first = true; first || cursor; first = false) {
        const page = await list(cursor);
        items.push(...pick(page));
        cursor = page.nextCursor;
      }
      return items;
    };
    return {
      tools: capabilities.tools ? await all((cursor) => client.listTools(cursor ? { cursor } : undefined), (p) => p.tools) : [],
      resources: capabilities.resources ? await all((cursor) => client.listResources(cursor ? { cursor } : undefined), (p) => p.resources) : [],
      resourceTemplates: capabilities.resources
        ? await all((cursor) => client.listResourceTemplates(cursor ? { cursor } : undefined), (p) => p.resourceTemplates)
        : [],
      prompts: capabilities.prompts ? await all((cursor) => client.listPrompts(cursor ? { cursor } : undefined), (p) => p.prompts) : [],
    } satisfies Catalogue;
  }).finally(() => progress.done());
  return { stdout: options.json ? JSON.stringify(catalogue, null, 2) : formatCatalogue(catalogue), exitCode: 0 };
}

function formatCatalogue({ tools, resources, resourceTemplates, prompts }: Catalogue): string {
  const section = (title: string, items: Listed[], lines: (item: Listed) => string[]) =>
    [`${title} (${items.length})`, ...items.flatMap((item) => [`  ${item.name}${item.description ? ` - ${item.description}` : ''}`, ...lines(item).map((l) => `    ${l}`)])];
  const json = (value: unknown) => JSON.stringify(value);
  return [
    ...section('Tools', tools, (t) => [`input:  ${json(t.inputSchema)}`, ...(t.outputSchema ? [`output: ${json(t.outputSchema)}`] : [])]),
    '',
    ...section('Resources', resources, (r) => [`uri: ${r.uri}${r.mimeType ? `  (${r.mimeType})` : ''}`]),
    '',
    ...section('Resource templates', resourceTemplates, (r) => [`uriTemplate: ${r.uriTemplate}${r.mimeType ? `  (${r.mimeType})` : ''}`]),
    '',
    ...section('Prompts', prompts, (p) => ((p.arguments as { name: string; description?: string; required?: boolean }[] | undefined) ?? []).map(
      (a) => `argument ${a.name}${a.required ? ' (required)' : ''}${a.description ? `: ${a.description}` : ''}`,
    )),
  ].join('\n');
}
