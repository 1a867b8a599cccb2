/** MCP content blocks (2025-11-25 `ContentBlock`), as the library builds them. */
export interface TextContent {
  type: 'text';
  text: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
export interface ImageContent {
  type: 'image';
  data: string;
  mimeType: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
export interface AudioContent {
  type: 'audio';
  data: string;
  mimeType: string;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
export interface EmbeddedResource {
  type: 'resource';
  resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string };
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
export interface ResourceLink {
  type: 'resource_link';
  uri: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  size?: number;
  annotations?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}
export type ContentBlock = TextContent | ImageContent | AudioContent | EmbeddedResource | ResourceLink;

const CONTENT = Symbol('mcp-reflect:content');

/** True for blocks made by the helpers below; plain objects that merely look alike are treated as data. */
export function isContentBlock(value: unknown): value is ContentBlock {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[CONTENT] === true;
}

function brand<T extends ContentBlock>(block: T): T {
  Object.defineProperty(block, CONTENT, { value: true, enumerable: false });
  return block;
}

function base64(data: string | Uint8Array): string {
  return typeof data === 'string' ? data : Buffer.from(data).toString('base64');
}

/** A text block. @example return [text('Done'), image(png, 'image/png')]; */
export function text(value: string): TextContent {
  return brand({ type: 'text', text: value });
}

/** An image block from bytes or base64. @example return image(await readFile('chart.png'), 'image/png'); */
export function image(data: string | Uint8Array, mimeType: string): ImageContent {
  return brand({ type: 'image', data: base64(data), mimeType });
}

/** An audio block from bytes or base64. @example return audio(wavBytes, 'audio/wav'); */
export function audio(data: string | Uint8Array, mimeType: string): AudioContent {
  return brand({ type: 'audio', data: base64(data), mimeType });
}

/**
 * A resource embedded in the result: text, or binary (`Uint8Array`, sent as base64 `blob`).
 * @example return embeddedResource('file:///notes.txt', 'hello', 'text/plain');
 */
export function embeddedResource(uri: string, content: string | Uint8Array, mimeType?: string): EmbeddedResource {
  const resource =
    typeof content === 'string'
      ? { uri, text: content, ...(mimeType ? { mimeType } : {}) }
      : { uri, blob: base64(content), ...(mimeType ? { mimeType } : {}) };
  return brand({ type: 'resource', resource });
}

/** A link to a resource the client may read. @example return resourceLink('file:///big.csv', 'big.csv'); */
export function resourceLink(
  uri: string,
  name: string,
  extra: Omit<ResourceLink, 'type' | 'uri' | 'name'> = {},
): ResourceLink {
  return brand({ type: 'resource_link', uri, name, ...extra });
}

/**
 * Full control over a tool result: content blocks, structured content, `_meta`, and `isError`.
 *
 * @example
 * return new ToolResult({ content: [text('3 rows')], structuredContent: { rows: 3 } });
 */
export class ToolResult {
  readonly content: ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly _meta?: Record<string, unknown>;

  constructor(init: {
    content?: ContentBlock[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
    _meta?: Record<string, unknown>;
  }) {
    this.content = init.content ?? [];
    if (init.structuredContent !== undefined) this.structuredContent = init.structuredContent;
    if (init.isError !== undefined) this.isError = init.isError;
    if (init._meta !== undefined) this._meta = init._meta;
  }
}
