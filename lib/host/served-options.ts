import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ExploredComponents } from '../pipeline';
import type { SchemaRefs } from '../interfaces';
import type { ToolSearchSettings } from '../server';
import type { ToolSearchOptions } from './mcp-options';

/** `McpModule.forRoot({ toolSearch })` checked at bootstrap: off, or the search's settings with their defaults. */
export function resolveToolSearch(option: boolean | ToolSearchOptions | undefined): ToolSearchSettings | undefined {
  if (option === undefined || option === false) return undefined;
  const fail = (cause: string, fix: string) =>
    new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot use McpModule.forRoot({ toolSearch }): ${cause}.\nFix: ${fix}.`);
  if (option === true) return { maxResults: DEFAULT_MAX_RESULTS, always: [] };
  if (typeof option !== 'object' || option === null) throw fail(`${JSON.stringify(option)} is neither a boolean nor an options object`, 'give toolSearch: true, or toolSearch: { maxResults: 10, always: [\'help\'] }');
  const { maxResults = DEFAULT_MAX_RESULTS, always = [] } = option;
  if (!Number.isSafeInteger(maxResults) || maxResults < 1 || maxResults > 100) throw fail(`maxResults ${JSON.stringify(maxResults)} is not a whole number from 1 to 100`, 'give the most tools one search returns, e.g. maxResults: 10');
  if (!Array.isArray(always) || !always.every((name) => typeof name === 'string')) throw fail('always is not an array of tool names', "give the served names of the tools listed beside the search, e.g. always: ['help']");
  return { maxResults, always: [...always] };
}

const DEFAULT_MAX_RESULTS = 10;

/** `McpModule.forRoot({ schemaRefs })` checked at bootstrap. */
export function checkSchemaRefs(option: SchemaRefs | undefined): SchemaRefs | undefined {
  if (option === undefined || option === 'keep') return option;
  const depth = typeof option === 'object' && option !== null ? option.recursionDepth : NaN;
  if (typeof option === 'object' && option !== null && (depth === undefined || (Number.isSafeInteger(depth) && depth >= 0 && depth <= 10))) return option;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot use McpModule.forRoot({ schemaRefs: ${JSON.stringify(option) ?? String(option)} }): it is neither 'keep' nor { recursionDepth } with a whole number from 0 to 10.\n` +
      `Fix: give schemaRefs: { recursionDepth: 3 } (how many times a recursive type is inlined inside itself), or schemaRefs: 'keep' to advertise $ref and $defs as built.`,
  );
}

/** The served names of the components a transform registers disabled (`enabled: false`). */
export function disabledNames(found: ExploredComponents): ReadonlySet<string> {
  const names = new Set<string>();
  for (const records of [found.tools, found.resources, found.templates, found.prompts]) {
    for (const record of records) if (record.transform?.enabled === false) names.add((record.options as { name?: string }).name ?? record.method);
  }
  return names;
}
