// The shapes of what a Context asks the client for, and of its answers (ctx.elicit, ctx.sample, ctx.ask …).

/** The outcome of `ctx.elicit()`. */
export type ElicitResult<T> = { action: 'accept'; content: T } | { action: 'decline' } | { action: 'cancel' };

/** A message of a sampling request (MCP `SamplingMessage`). */
export interface SamplingMessage {
  role: 'user' | 'assistant';
  content: { type: 'text'; text: string } | { type: 'image' | 'audio'; data: string; mimeType: string };
}

/** How one request for input is named. */
export interface InputOptions {
  /**
   * The key of this input in the 2026-07-28 `inputRequests` / `inputResponses` (default: `elicit-0`,
   * `sample-1`, … in the order the method asks). Give one when a client answers by name; unique within the call.
   */
  key?: string;
}

/** Options of `ctx.sample()`, as in `sampling/createMessage` (maxTokens defaults to 1000). */
export interface SampleOptions extends InputOptions {
  maxTokens?: number;
  systemPrompt?: string;
  temperature?: number;
  stopSequences?: string[];
  includeContext?: 'none' | 'thisServer' | 'allServers';
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** The client's `CreateMessageResult`. */
export interface SamplingResult {
  role: 'user' | 'assistant';
  content: unknown;
  model: string;
  stopReason?: string;
  [key: string]: unknown;
}
