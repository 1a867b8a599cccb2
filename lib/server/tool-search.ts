import type { RequestChannel } from '../context';
import { RequestError, RpcCode } from '../errors';
import { allowedItems } from '../pipeline';
import type { CallOutcome, ToolDefinition, ToolDescriptor } from '../tools';
import type { ProtocolApplication } from './protocol-application';

/**
 * The `_meta` key of a `tools/list` request that asks for every tool while tool search is on
 * (`McpModule.forRoot({ toolSearch })`): `client.listTools({ _meta: { [FULL_TOOL_LIST]: true } })`.
 */
export const FULL_TOOL_LIST = 'mcp-reflect/fullToolList';

export const SEARCH_TOOLS = 'search_tools';
export const CALL_TOOL = 'call_tool';
/** The names tool search serves: no tool of the application may have them. */
export const TOOL_SEARCH_NAMES: readonly string[] = [SEARCH_TOOLS, CALL_TOOL];

/** `McpModule.forRoot({ toolSearch })` as checked at bootstrap. */
export interface ToolSearchSettings {
  readonly maxResults: number;
  /** Served names of tools listed beside the search tools. */
  readonly always: readonly string[];
}

type SearchPage = { readonly items: readonly ToolDescriptor[] };

/** The longest query read (a client may send any length); the rest is ignored. */
const MAX_QUERY = 500;
const MAX_QUERY_TOKENS = 32;
/** A query word found in a tool's name counts this many times one found in its description. */
const NAME_WEIGHT = 3;

const SEARCH_DESCRIPTOR: ToolDescriptor = {
  name: SEARCH_TOOLS,
  title: 'Search tools',
  description:
    'Finds the tools of this server for a task: ranks them by how well their names and descriptions match the query, ' +
    'and returns the best matches with their input schemas. Run one with call_tool (or call it by its name).',
  inputSchema: {
    type: 'object',
    properties: { query: { type: 'string', description: 'What you want to do, in a few words, e.g. "weather forecast for a city".' } },
    required: ['query'],
  },
  annotations: { readOnlyHint: true },
};

const CALL_DESCRIPTOR: ToolDescriptor = {
  name: CALL_TOOL,
  title: 'Call a tool',
  description: 'Runs a tool that search_tools found, by its name, with arguments as its input schema describes them.',
  inputSchema: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'The name of the tool, as search_tools returned it.' },
      arguments: { type: 'object', description: "The tool's arguments." },
    },
    required: ['name'],
  },
};

/** With task tools, call_tool may run as a task too (whatever the named tool allows decides). */
const CALL_TASK_DESCRIPTOR: ToolDescriptor = { ...CALL_DESCRIPTOR, execution: { taskSupport: 'optional' } };

/**
 * `tools/list` while tool search is on: the `always` tools the caller may see, then `search_tools` and
 * `call_tool`, on one page (computed once per change of the catalogue when no listed tool is guarded).
 */
export function searchListPage(app: ProtocolApplication, settings: ToolSearchSettings, cursor: string | undefined, open: () => RequestChannel): SearchPage | Promise<SearchPage> {
  if (cursor !== undefined) {
    throw new RequestError(RpcCode.InvalidParams, `Invalid cursor '${cursor.slice(0, 64)}': with tool search, tools/list has one page; omit the cursor (or ask for every tool with _meta['${FULL_TOOL_LIST}']).`);
  }
  const { tools } = app;
  const pinned = tools.memo('toolSearch:always', () => settings.always.map((name) => tools.get(name)).filter((tool): tool is ToolDefinition => tool !== undefined));
  const synthetic = tools.memo('toolSearch:synthetic', () => [SEARCH_DESCRIPTOR, tools.some((t) => t.task !== undefined) ? CALL_TASK_DESCRIPTOR : CALL_DESCRIPTOR]);
  if (!pinned.some((tool) => tool.pipeline.guarded)) return tools.memo('toolSearch:page', () => ({ items: [...pinned.map((t) => t.descriptor), ...synthetic] }));
  return allowedItems(pinned, (t) => t.pipeline, open, 'tools/list', app.openScope).then((visible) => ({ items: [...visible.map((t) => t.descriptor), ...synthetic] }));
}

/**
 * A `search_tools` call: the tools this caller may see (their guards and scopes asked as `tools/list` asks
 * them), ranked by the query's words in their names and descriptions, best first (ties in registration
 * order), at most `maxResults`, each as `tools/list` describes it.
 */
export async function searchTools(app: ProtocolApplication, settings: ToolSearchSettings, args: unknown, open: () => RequestChannel): Promise<CallOutcome> {
  const query = (args as { query?: unknown } | undefined)?.query;
  if (typeof query !== 'string') return invalid(SEARCH_TOOLS, `query: ${query === undefined ? 'is required' : 'must be a string'}`);
  const ranked = rank(index(app), query);
  const visible = await allowedItems(ranked, (t) => t.pipeline, open, 'tools/list', app.openScope);
  const tools = visible.slice(0, settings.maxResults).map((t) => t.descriptor);
  return { content: [{ type: 'text', text: JSON.stringify({ tools }) }], structuredContent: { tools } };
}

/**
 * A `call_tool` call as the call of the tool it names: the same request with that name and arguments (its
 * `_meta` and task parameters kept), or the answer when it names none.
 */
export function unwrapCallTool<P extends { name: string; arguments?: Record<string, unknown> }>(params: P): { params: P } | { refused: CallOutcome } {
  const args = params.arguments ?? {};
  const { name, arguments: inner } = args as { name?: unknown; arguments?: unknown };
  if (typeof name !== 'string') return { refused: invalid(CALL_TOOL, `name: ${name === undefined ? 'is required' : 'must be a string'}`) };
  if (inner !== undefined && (typeof inner !== 'object' || inner === null || Array.isArray(inner))) return { refused: invalid(CALL_TOOL, 'arguments: must be an object') };
  if (TOOL_SEARCH_NAMES.includes(name)) return { refused: invalid(CALL_TOOL, `name: '${name}' is one of the search tools; call it directly`) };
  return { params: { ...params, name, arguments: (inner ?? {}) as Record<string, unknown> } };
}

function invalid(tool: string, issue: string): CallOutcome {
  return { content: [{ type: 'text', text: `Invalid arguments for tool ${tool}: ${issue}` }], isError: true };
}

interface Entry {
  readonly tool: ToolDefinition;
  readonly name: ReadonlySet<string>;
  readonly text: ReadonlyMap<string, number>;
}

interface SearchIndex {
  readonly entries: readonly Entry[];
  /** Word → how many tools have it in their name or description. */
  readonly frequency: ReadonlyMap<string, number>;
}

/** The words of every enabled tool, computed once per change of the catalogue. */
function index(app: ProtocolApplication): SearchIndex {
  return app.tools.memo('toolSearch:index', () => {
    const frequency = new Map<string, number>();
    const entries = app.tools.values().map((tool): Entry => {
      const { descriptor } = tool;
      const name = new Set(words(`${descriptor.name} ${descriptor.title ?? ''}`));
      const properties = (descriptor.inputSchema.properties ?? {}) as Record<string, { description?: unknown }>;
      const described = [descriptor.description ?? '', ...Object.entries(properties).map(([key, p]) => `${key} ${typeof p?.description === 'string' ? p.description : ''}`)];
      const text = new Map<string, number>();
      for (const word of words(described.join(' '))) text.set(word, (text.get(word) ?? 0) + 1);
      for (const word of new Set([...name, ...text.keys()])) frequency.set(word, (frequency.get(word) ?? 0) + 1);
      return { tool, name, text };
    });
    return { entries, frequency };
  });
}

/** The tools that match some word of `query`, best first (BM25-like weights: rare words count more, the name most). */
function rank(index: SearchIndex, query: string): ToolDefinition[] {
  const asked = [...new Set(words(query.slice(0, MAX_QUERY)))].slice(0, MAX_QUERY_TOKENS);
  const exact = query.trim().toLowerCase();
  const count = index.entries.length;
  const scored: { tool: ToolDefinition; score: number; order: number }[] = [];
  index.entries.forEach((entry, order) => {
    let score = entry.tool.name.toLowerCase() === exact ? 100 : 0;
    for (const word of asked) {
      const frequency = index.frequency.get(word);
      if (frequency === undefined) continue;
      const rarity = Math.log(1 + (count - frequency + 0.5) / (frequency + 0.5));
      const inText = entry.text.get(word) ?? 0;
      score += rarity * ((entry.name.has(word) ? NAME_WEIGHT : 0) + inText / (inText + 1.2));
    }
    if (score > 0) scored.push({ tool: entry.tool, score, order });
  });
  return scored.sort((a, b) => b.score - a.score || a.order - b.order).map((s) => s.tool);
}

/** Lower-case words: `getForecast`, `get_forecast` and `get forecast` all give `get`, `forecast`; a plural `s` is dropped. */
function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0)
    .map((word) => (word.length > 3 && word.endsWith('s') && !word.endsWith('ss') ? word.slice(0, -1) : word));
}
