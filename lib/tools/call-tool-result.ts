import type { ContentBlock } from '../content';

/** A `CallToolResult` a method returned as a plain object (the shape the SDK's McpServer and @rekog/mcp-nest take). */
export interface PlainCallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

const RESULT_KEYS = new Set(['content', 'structuredContent', 'isError', '_meta']);
const BLOCK_TYPES = new Set(['text', 'image', 'audio', 'resource', 'resource_link']);

/**
 * True when a returned value is meant as a `CallToolResult` rather than as data: a plain object (not a class
 * instance) whose own keys are only `content`, `structuredContent`, `isError` and `_meta`, with `content` an array
 * whose items each carry a `type` among the MCP content types (`text`, `image`, `audio`, `resource`,
 * `resource_link`). Anything else, a DTO with a `content` field and more among them, stays data.
 * (docs/tools.md#returning-a-calltoolresult)
 */
export function looksLikeCallToolResult(value: unknown): value is PlainCallToolResult {
  if (!isPlainObject(value) || !Array.isArray(value.content)) return false;
  for (const key of Object.keys(value)) if (!RESULT_KEYS.has(key)) return false;
  return value.content.every((block: unknown) => isPlainObject(block) && typeof block.type === 'string' && BLOCK_TYPES.has(block.type));
}

/** What keeps a value that looks like a `CallToolResult` from being a valid one, one line per problem (none when valid). */
export function callToolResultIssues(result: PlainCallToolResult): string[] {
  const issues: string[] = [];
  if (result.isError !== undefined && typeof result.isError !== 'boolean') issues.push('isError: must be a boolean');
  if (result.structuredContent !== undefined && !isJsonObject(result.structuredContent)) issues.push('structuredContent: must be an object');
  if (result._meta !== undefined && !isJsonObject(result._meta)) issues.push('_meta: must be an object');
  result.content.forEach((block, i) => {
    const missing = blockIssue(block as unknown as Record<string, unknown>);
    if (missing) issues.push(`content[${i}]: ${missing}`);
  });
  return issues;
}

/** The fields each content block requires (MCP 2025-11-25 `ContentBlock`). */
function blockIssue(block: Record<string, unknown>): string | undefined {
  const strings = (...names: string[]) => names.every((name) => typeof block[name] === 'string');
  switch (block.type) {
    case 'text':
      return strings('text') ? undefined : 'a text block needs a string text';
    case 'image':
    case 'audio':
      return strings('data', 'mimeType') ? undefined : `an ${block.type} block needs a base64 string data and a string mimeType`;
    case 'resource_link':
      return strings('uri', 'name') ? undefined : 'a resource_link block needs a string uri and name';
    default: {
      const resource = block.resource;
      const valid = isPlainObject(resource) && typeof resource.uri === 'string' && (typeof resource.text === 'string' || typeof resource.blob === 'string');
      return valid ? undefined : 'a resource block needs a resource with a string uri and a string text or blob';
    }
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
