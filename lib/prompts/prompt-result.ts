import type { ContentBlock } from '../content';

/** One message of a prompt (MCP `PromptMessage`). */
export interface PromptMessage {
  role: 'user' | 'assistant';
  content: ContentBlock;
}

/** A `prompts/get` result. */
export interface PromptResult {
  description?: string;
  messages: PromptMessage[];
}

/**
 * A user message; text or a content block (`image(...)`, `embeddedResource(...)`, …).
 * @example return [userMessage(image(png, 'image/png')), userMessage('What is in this picture?')];
 */
export function userMessage(content: string | ContentBlock): PromptMessage {
  return { role: 'user', content: typeof content === 'string' ? { type: 'text', text: content } : stripBrand(content) };
}

/** An assistant message, for few-shot prompts. */
export function assistantMessage(content: string | ContentBlock): PromptMessage {
  return { role: 'assistant', content: typeof content === 'string' ? { type: 'text', text: content } : stripBrand(content) };
}

function stripBrand(block: ContentBlock): ContentBlock {
  return { ...block };
}

/**
 * What a prompt method returned → a `prompts/get` result: a string is one user message; a message, or an
 * array of messages and strings, becomes the message list; `{ description?, messages }` is used as is.
 */
export function toPromptResult(value: unknown, description: string | undefined): PromptResult | undefined {
  const withDescription = (messages: PromptMessage[]): PromptResult =>
    description === undefined ? { messages } : { description, messages };
  if (typeof value === 'string') return withDescription([userMessage(value)]);
  if (isMessage(value)) return withDescription([value]);
  if (Array.isArray(value) && value.every((m) => typeof m === 'string' || isMessage(m))) {
    return withDescription(value.map((m) => (typeof m === 'string' ? userMessage(m) : m)));
  }
  if (value && typeof value === 'object' && Array.isArray((value as PromptResult).messages)) {
    const result = value as PromptResult;
    const text = result.description ?? description;
    return text === undefined ? { messages: result.messages } : { description: text, messages: result.messages };
  }
  return undefined;
}

function isMessage(value: unknown): value is PromptMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    ((value as PromptMessage).role === 'user' || (value as PromptMessage).role === 'assistant') &&
    typeof (value as PromptMessage).content === 'object'
  );
}
