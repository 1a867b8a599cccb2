import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { JsonSchema } from '../interfaces';
import type { SchemaSite } from './schema.messages';

/** The schema keyword SEP-2243 reads: the property is mirrored into the `Mcp-Param-<value>` header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** RFC 9110 §5.6.2 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The JSON Schema types SEP-2243 allows on a mirrored property (`number` is excluded by the revision). */
const HEADER_TYPES = new Set(['string', 'integer', 'boolean']);

/**
 * Checks the `header` option of one `@Param()` against the property schema built for it and the headers the
 * same tool already declared (lower-cased name → parameter position), then returns the schema with
 * `x-mcp-header`. Throws a bootstrap error naming the tool, method, parameter, cause and fix.
 */
export function withParamHeader(schema: JsonSchema, header: unknown, site: SchemaSite, seen: Map<string, string>): JsonSchema {
  const example = `@Param('region', { header: 'Region' })`;
  if (typeof header !== 'string' || !TOKEN.test(header)) {
    fail(
      site,
      `its header option ${JSON.stringify(header)} is not a valid header name suffix: it must be a non-empty RFC 9110 token ` +
        "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons or other delimiters).",
      `give a token such as ${example}; the header sent is then Mcp-Param-Region.`,
    );
  }
  const type = typeof schema.type === 'string' ? schema.type : undefined;
  if (type === undefined || !HEADER_TYPES.has(type)) {
    fail(
      site,
      `only string, integer and boolean arguments can be mirrored into a header, but its schema type is ${type ?? (Array.isArray(schema.type) ? JSON.stringify(schema.type) : 'not a single type')}.`,
      type === 'number'
        ? `declare the argument as an integer (@Param('${nameOf(site)}', { type: 'integer', header: '${header}' })) or a string, or drop the header option.`
        : 'mirror a string, integer or boolean argument instead, or drop the header option.',
    );
  }
  const lower = header.toLowerCase();
  const prior = seen.get(lower);
  if (prior !== undefined) {
    fail(
      site,
      `its header '${header}' is already used by ${prior} (header names are compared ignoring case).`,
      'give each mirrored argument of a tool its own header name.',
    );
  }
  seen.set(lower, site.position);
  return { ...schema, [X_MCP_HEADER]: header };
}

function nameOf(site: SchemaSite): string {
  return /'([^']*)'/.exec(site.position)?.[1] ?? 'name';
}

function fail(site: SchemaSite, cause: string, fix: string): never {
  throw new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot build the input schema of ${site.owner}: ${site.position} cannot be mirrored into an Mcp-Param header.\n` +
      `Cause: ${cause}\n` +
      `Fix: ${fix}`,
  );
}
