import type { Client } from '@modelcontextprotocol/client';

/**
 * One framework under test. Every system serves the same tools:
 * - `add(a: number, b: number)` → text `String(a + b)`;
 * - `book(input)` (the DTO tool) with input
 *   `{ title: string (1..100 chars), copies: integer (1..10), genre: 'fiction' | 'science' | 'history',
 *      note?: string, authors: { first: string, last: string, born: integer }[] }` → text
 *   `${title} x${copies} (${genre}) by ${authors.map(a => a.last).join(', ')}`;
 * - `extra` more trivial tools `tool_0` … `tool_{extra-1}` (each `(@Param() n: number) => n`), for tools/list.
 * Arguments are validated by the system's own mechanism (that is what is measured).
 */
export interface BenchSystem {
  /** 'limit', 'McpServer+zod', 'mcp-reflect', 'mcp-reflect+zod' (its book tool on McpServer+zod's schema), 'mcp-nest', 'mcp-reflect-nest' (mcp-reflect in Nest), 'fastmcp'; 'mcp-reflect@<rev>' for a baseline (baseline.ts). */
  readonly name: string;
  /** A server with the benchmark tools plus `extra` trivial tools, and an SDK v2 client connected to it in memory. */
  inMemory(extra: number, options?: { scoped?: boolean }): Promise<Connected>;
  /** Command that starts a stdio server with the benchmark tools plus `extra` trivial tools (for cold start). */
  stdio?(extra: number): { command: string; args: string[]; env?: Record<string, string> };
  /** A stateless Streamable HTTP endpoint on 127.0.0.1 (port 0) with the benchmark tools. */
  httpStateless?(): Promise<Listening>;
  /** A stateful (session) Streamable HTTP endpoint on 127.0.0.1 (port 0) with the benchmark tools. */
  httpStateful?(): Promise<Listening>;
  /** Milliseconds to build a ready server with `tools` trivial tools (no transport). */
  /**
   * `precompiled`: with the validators `mcp-reflect validators` wrote; `onFirstUse`: with `compileValidators:
   * 'onFirstUse'` (mcp-reflect only).
   */
  bootstrap?(tools: number, options?: { precompiled?: boolean; onFirstUse?: boolean }): Promise<number>;
}

export interface Connected {
  readonly client: Client;
  /** The client's end of the in-memory pair, for requests that bypass the SDK client (see worker.ts). */
  readonly transport: ClientEnd;
  close(): Promise<void>;
}

/** What the worker needs of the client's transport end: send, and the handler the SDK client installed. */
export interface ClientEnd {
  send(message: object): Promise<void>;
  onmessage?: (message: any, extra?: any) => void;
}

export interface Listening {
  readonly url: string;
  close(): Promise<void>;
}

export const ADD_ARGS = { a: 2, b: 3 };
export const BOOK_ARGS = {
  title: 'The Dispossessed',
  copies: 3,
  genre: 'fiction',
  note: 'signed',
  authors: [
    { first: 'Ursula', last: 'Le Guin', born: 1929 },
    { first: 'Ann', last: 'Other', born: 1950 },
  ],
};
export const BOOK_TEXT = 'The Dispossessed x3 (fiction) by Le Guin, Other';

/** The hand-written JSON Schemas of the benchmark tools (what the limit system validates with ajv). */
export const ADD_SCHEMA = {
  type: 'object',
  properties: { a: { type: 'number' }, b: { type: 'number' } },
  required: ['a', 'b'],
  additionalProperties: false,
} as const;
export const BOOK_SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 100 },
    copies: { type: 'integer', minimum: 1, maximum: 10 },
    genre: { type: 'string', enum: ['fiction', 'science', 'history'] },
    note: { type: 'string' },
    authors: {
      type: 'array',
      items: {
        type: 'object',
        properties: { first: { type: 'string' }, last: { type: 'string' }, born: { type: 'integer' } },
        required: ['first', 'last', 'born'],
        additionalProperties: false,
      },
    },
  },
  required: ['title', 'copies', 'genre', 'authors'],
  additionalProperties: false,
} as const;
export const EXTRA_SCHEMA = {
  type: 'object',
  properties: { n: { type: 'number' } },
  required: ['n'],
  additionalProperties: false,
} as const;

export function bookText(input: { title: string; copies: number; genre: string; authors: { last: string }[] }): string {
  return `${input.title} x${input.copies} (${input.genre}) by ${input.authors.map((a) => a.last).join(', ')}`;
}
