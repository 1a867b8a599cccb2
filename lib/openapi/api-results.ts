import { audio, embeddedResource, image, text, ToolResult, type ContentBlock } from '../content';
import { ToolError } from '../errors';
import type { ApiAnswer } from './api-client';
import { callMessages } from './openapi.messages';
import { isJsonType } from './operations';

/** How an operation's tool answers: with an advertised output schema (`wrapped`: as `{ result }`), or without. */
export interface ResultShape {
  readonly output?: { readonly wrapped: boolean };
}

/**
 * A success answer as a tool result: JSON as `structuredContent` (an object as it is, anything else as
 * `{ result }`) with the same JSON as text; text as text; images and audio as their blocks; other bytes as an
 * embedded resource. With an output schema, an answer that is not JSON fails the call, saying so.
 */
export function toolResult(answer: ApiAnswer, shape: ResultShape): ToolResult {
  const { output } = shape;
  if (answer.bytes.byteLength === 0) {
    if (output) throw new ToolError(callMessages.noBody(answer.label, answer.status));
    return new ToolResult({ content: [text(`${answer.label} answered HTTP ${answer.status}`)] });
  }
  if (isJsonType(answer.type)) {
    const raw = new TextDecoder().decode(answer.bytes);
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ToolError(callMessages.badJson(answer.label));
    }
    const object = typeof value === 'object' && value !== null && !Array.isArray(value);
    const structured = (output ? (output.wrapped ? { result: value } : value) : object ? value : { result: value }) as Record<string, unknown>;
    return new ToolResult({ content: [text(raw)], structuredContent: structured });
  }
  if (output) throw new ToolError(callMessages.notJson(answer.label, answer.type));
  return new ToolResult({ content: [block(answer)] });
}

/**
 * A success answer as what a resource method returns: text (JSON included) as a string, anything else as bytes
 * (a blob); the read's URI and the resource's media type (its operation's 2xx type) go with them.
 */
export function resourceValue(answer: ApiAnswer): string | Uint8Array {
  return isTextual(answer.type) ? new TextDecoder().decode(answer.bytes) : answer.bytes;
}

function block(answer: ApiAnswer): ContentBlock {
  if (isTextual(answer.type)) return text(new TextDecoder().decode(answer.bytes));
  if (answer.type.startsWith('image/')) return image(answer.bytes, answer.type);
  if (answer.type.startsWith('audio/')) return audio(answer.bytes, answer.type);
  return embeddedResource(answer.url.href, answer.bytes, answer.type || 'application/octet-stream');
}

function isTextual(type: string): boolean {
  return /^text\/|^application\/(?:[\w.+-]+\+)?(?:json|xml|yaml|x-yaml|javascript|x-www-form-urlencoded)$/.test(type);
}
