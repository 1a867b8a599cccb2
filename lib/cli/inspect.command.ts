import type { McpInspection } from '../host/inspection';
import { parseArgs, type CommandSpec } from './args';
import type { CommandOutput } from './output';
import { createProgress, type CliIo } from './progress';
import { identityOf, withClient, type TypesSource } from './session';

export const inspectSpec: CommandSpec = {
  name: 'inspect',
  positionals: ['entry'],
  options: { subject: 'value', scopes: 'value', json: 'flag', module: 'value', metadata: 'value', quiet: 'flag', help: 'flag' },
};

export const inspectUsage = `Usage: mcp-reflect inspect <entry> [--json] [--module <Name>] [--metadata <file>] [--subject <id>] [--scopes <a,b>]

Bootstraps the root module exported by <entry> with the generated types the server uses and lists every tool
(name, description, input and output schema), resource, resource template and prompt it serves, each with the
class and method that declares it. A class with component decorators that no module provides is named on stderr.

Options:
  --json             print one JSON document { tools, resources, resourceTemplates, prompts }, as the lists return them
  --module <Name>    the exported root module class, when the entry exports several @Module() classes
  --metadata <file>  the module \`mcp-reflect generate\` wrote (default: the one the module passes to
                     McpModule.forRoot, else mcp-metadata next to the entry or above it, within its project)
  --subject <id>     call as this subject (as a verified bearer token would say), for guards and ctx.auth
  --scopes <a,b>     with these scopes (comma- or space-separated), for @Scopes() and guards
  --quiet            no progress line (shown on stderr when loading takes over a second)
  --help             show this help`;

interface Catalogue {
  tools: Listed[];
  resources: Listed[];
  resourceTemplates: Listed[];
  prompts: Listed[];
}
type Listed = { name: string; description?: string; [key: string]: unknown };
type Page = { nextCursor?: string };
/** What `app.inspect()` says of a listed item. */
type Described = Pick<McpInspection['tools'][number], 'owner' | 'tags' | 'scopes' | 'task'>;

export async function inspectCommand(argv: readonly string[], io: CliIo = { stderr: process.stderr }): Promise<CommandOutput> {
  const { positionals, options } = parseArgs(argv, inspectSpec);
  if (options.help) return { stdout: inspectUsage, exitCode: 0 };
  const entry = positionals[0]!;
  // Shown only when loading takes over a second (a require() of a big entry blocks: the line shows right after).
  const progress = createProgress(io.stderr, { quiet: options.quiet === true, delay: 1000 });
  progress.update(`Loading ${entry}`);
  const session = { entry, moduleName: options.module as string | undefined, metadata: options.metadata as string | undefined, auth: identityOf(options) };
  const { catalogue, inspection, types } = await withClient(session, async (client, types) => {
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
    const catalogue: Catalogue = {
      tools: capabilities.tools ? await all((cursor) => client.listTools(cursor ? { cursor } : undefined), (p) => p.tools) : [],
      resources: capabilities.resources ? await all((cursor) => client.listResources(cursor ? { cursor } : undefined), (p) => p.resources) : [],
      resourceTemplates: capabilities.resources
        ? await all((cursor) => client.listResourceTemplates(cursor ? { cursor } : undefined), (p) => p.resourceTemplates)
        : [],
      prompts: capabilities.prompts ? await all((cursor) => client.listPrompts(cursor ? { cursor } : undefined), (p) => p.prompts) : [],
    };
    return { catalogue, inspection: client.app.inspect(), types };
  }).finally(() => progress.done());
  return { stdout: options.json ? JSON.stringify(catalogue, null, 2) : formatCatalogue(catalogue, inspection, types), exitCode: 0 };
}

/** The lists as text; each item with what the application says of it (`app.inspect()`): its owner, tags, scopes, task. */
function formatCatalogue({ tools, resources, resourceTemplates, prompts }: Catalogue, inspection: McpInspection, types: TypesSource): string {
  const section = (title: string, items: Listed[], lines: (item: Listed) => string[], find: (item: Listed) => Described | undefined, pad = 0) =>
    [
      `${title} (${items.length})`,
      ...items.flatMap((item) => [
        `  ${item.name}${item.description ? ` - ${item.description}` : ''}`,
        ...[...lines(item), ...described(find(item), pad)].map((l) => `    ${l}`),
      ]),
    ];
  const json = (value: unknown) => JSON.stringify(value);
  return [
    ...section(
      'Tools',
      tools,
      (t) => [`input:  ${json(t.inputSchema)}`, ...(t.outputSchema ? [`output: ${json(t.outputSchema)}`] : [])],
      (t) => inspection.tools.find((d) => d.name === t.name),
      8,
    ),
    '',
    ...section('Resources', resources, (r) => [`uri: ${r.uri}${r.mimeType ? `  (${r.mimeType})` : ''}`], (r) => inspection.resources.find((d) => d.uri === r.uri)),
    '',
    ...section(
      'Resource templates',
      resourceTemplates,
      (r) => [`uriTemplate: ${r.uriTemplate}${r.mimeType ? `  (${r.mimeType})` : ''}`],
      (r) => inspection.resourceTemplates.find((d) => d.uriTemplate === r.uriTemplate),
    ),
    '',
    ...section(
      'Prompts',
      prompts,
      (p) =>
        ((p.arguments as { name: string; description?: string; required?: boolean }[] | undefined) ?? []).map(
          (a) => `argument ${a.name}${a.required ? ' (required)' : ''}${a.description ? `: ${a.description}` : ''}`,
        ),
      (p) => inspection.prompts.find((d) => d.name === p.name),
    ),
    '',
    typesLine(types),
  ].join('\n');
}

/** `from: Class.method`, then tags, scopes and task when there are any; labels padded to `pad` (tools: as input/output). */
function described(entry: Described | undefined, pad: number): string[] {
  if (!entry) return []; // an entry of a @ResourceList() method: computed per list, not declared
  const label = (name: string) => `${name}:`.padEnd(Math.max(pad, name.length + 2));
  return [
    `${label('from')}${entry.owner.class.name}.${entry.owner.method}`,
    ...(entry.tags.length > 0 ? [`${label('tags')}${entry.tags.join(', ')}`] : []),
    ...(entry.scopes.length > 0 ? [`${label('scopes')}${entry.scopes.join(' ')}`] : []),
    ...(entry.task ? [`${label('task')}${entry.task.support}${entry.task.start === 'on-demand' ? ', started on demand' : ''}`] : []),
  ];
}

/** Where the schemas came from: the generated types (which file), or reflection alone. */
function typesLine(types: TypesSource): string {
  if (types.kind === 'file') return `Types: generated by mcp-reflect generate, from ${types.file}${types.given ? ' (--metadata)' : ''}`;
  if (types.kind === 'application') return 'Types: generated by mcp-reflect generate, given by the module (McpModule.forRoot({ metadata }))';
  return 'Types: reflected from the decorators only (no generated module found: `npx mcp-reflect generate` writes one)';
}
