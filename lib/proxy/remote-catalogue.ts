import type { Prompt, Resource, ResourceTemplateType as ResourceTemplate, Tool } from '@modelcontextprotocol/client';
import type { McpProxyOptions } from './proxy.options';
import { namesOf, printable } from '../catalogue';
import { withSafePatterns } from '../schema';
import type { JsonSchema } from '../interfaces';

/** What the remote serves, as it listed it when it last connected or changed (within the catalogue's bounds). */
export interface RemoteCatalogue {
  readonly tools: readonly Tool[];
  readonly resources: readonly Resource[];
  readonly templates: readonly ResourceTemplate[];
  readonly prompts: readonly Prompt[];
  /** Whether it completes prompt arguments and template variables (`completion/complete`). */
  readonly completions: boolean;
}

/** What listing needs of the SDK client: its public per-request path (one page, no aggregation, no cache). */
interface Lister {
  getServerCapabilities(): { tools?: object; resources?: object; prompts?: object; completions?: object } | undefined;
  request(request: { method: string; params?: Record<string, unknown> }, options?: { timeout?: number; signal?: AbortSignal }): Promise<unknown>;
}

const KINDS = [
  { what: 'tool', method: 'tools/list', key: 'tools', capability: 'tools' },
  { what: 'resource', method: 'resources/list', key: 'resources', capability: 'resources' },
  { what: 'resource template', method: 'resources/templates/list', key: 'resourceTemplates', capability: 'resources' },
  { what: 'prompt', method: 'prompts/list', key: 'prompts', capability: 'prompts' },
] as const;

const MAX_CURSOR = 4_096; // characters of a cursor sent back to the remote

/**
 * Lists the remote's components page by page within the catalogue's bounds (docs/reliability.md, "Proxy"):
 * at most `maxListPages` pages and `maxComponents` components of each kind, none larger than
 * `maxComponentBytes`, and `maxCatalogueBytes` in all, each page within `timeout`, the whole within `signal`.
 * What is past a bound is left out and reported once per listing; what fit is returned.
 */
export async function listCatalogue(client: Lister, options: McpProxyOptions, label: string, signal: AbortSignal, report: (message: string) => void): Promise<RemoteCatalogue> {
  const caps = client.getServerCapabilities() ?? {};
  const timeout = options.connectTimeout ?? 10_000;
  const maxPages = options.maxListPages ?? 50;
  const maxCount = options.maxComponents ?? 1_000;
  const maxOne = options.maxComponentBytes ?? 256 * 1024;
  const maxAll = options.maxCatalogueBytes ?? 8 * 1024 * 1024;
  let bytes = 0;
  const lists: Record<string, unknown[]> = {};
  for (const { what, method, key, capability } of KINDS) {
    const items: unknown[] = (lists[key] = []);
    if (!caps[capability]) continue;
    const tooBig: string[] = [];
    let cursor: string | undefined;
    let past: string | undefined;
    let pages = 0;
    do {
      if (pages === maxPages) past = `more than ${maxPages} pages (maxListPages)`;
      else if (bytes > maxAll) past = `more than ${maxAll} bytes (maxCatalogueBytes)`;
      if (past) break;
      let page: Record<string, unknown>;
      try {
        page = (await client.request({ method, ...(cursor !== undefined ? { params: { cursor } } : {}) }, { timeout, signal })) as Record<string, unknown>;
      } catch (error) {
        // Out of time with something listed: what was listed is served; with nothing, the listing failed.
        if (!signal.aborted || Object.values(lists).every((list) => list.length === 0)) throw error;
        past = `for longer than ${timeout} ms (connectTimeout)`;
        break;
      }
      pages++;
      const listed = Array.isArray(page[key]) ? (page[key] as unknown[]) : [];
      for (const item of listed) {
        const size = Buffer.byteLength(JSON.stringify(item) ?? '');
        // Every component read counts, served or not: a remote listing huge ones is read for so long only.
        bytes += size;
        if (size > maxOne) tooBig.push(nameOf(item));
        else if (items.length === maxCount) past = `more than ${maxCount} ${what}s (maxComponents)`;
        else items.push(item);
        if (!past && bytes > maxAll) past = `more than ${maxAll} bytes (maxCatalogueBytes)`;
        if (past) break;
      }
      const next = page.nextCursor;
      cursor = typeof next === 'string' && next !== '' && next.length <= MAX_CURSOR ? next : undefined;
    } while (cursor !== undefined && !past);
    if (tooBig.length > 0) {
      report(`The ${label} lists ${tooBig.length === 1 ? `the ${what}` : `${tooBig.length} ${what}s`} ${namesOf(tooBig)} larger than ${maxOne} bytes (maxComponentBytes): left out.`);
    }
    if (past) report(`The ${label} lists ${past}: the ${what}s past it are left out; the ${items.length} that fit are served.`);
  }
  return {
    tools: (lists.tools as Tool[]).map((tool) => withSafeSchemas(tool, label, report)),
    resources: lists.resources as Resource[],
    templates: lists.resourceTemplates as ResourceTemplate[],
    prompts: lists.prompts as Prompt[],
    completions: caps.completions !== undefined,
  };
}

/**
 * A remote tool's schemas without patterns that can backtrack catastrophically (they run on every call's
 * arguments and answers): such a pattern is dropped, and said so (../schema/safe-pattern.ts, as for OpenAPI).
 */
function withSafeSchemas(tool: Tool, label: string, report: (message: string) => void): Tool {
  const dropped: string[] = [];
  const safe = (schema: unknown) => {
    if (schema === null || typeof schema !== 'object') return schema;
    try {
      return withSafePatterns(schema as JsonSchema, (d) => dropped.push(`${d.pointer}: ${printable(d.pattern, 100)} (${d.why})`));
    } catch {
      return schema; // nested past the check's depth: the schema compiler refuses it, and the tool alone is left out
    }
  };
  const inputSchema = safe(tool.inputSchema);
  const outputSchema = safe(tool.outputSchema);
  if (dropped.length === 0) return tool;
  report(`The ${label}'s tool '${printable(tool.name, 100)}' has patterns that could take exponential time: ${dropped.slice(0, 5).join('; ')}. They are not checked.`);
  return { ...tool, inputSchema, ...(tool.outputSchema !== undefined ? { outputSchema } : {}) } as Tool;
}

function nameOf(item: unknown): string {
  const record = (typeof item === 'object' && item !== null ? item : {}) as Record<string, unknown>;
  return String(record.name ?? record.uri ?? record.uriTemplate ?? '?');
}
