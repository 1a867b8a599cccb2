import type { ElicitResult, InputOptions, SampleOptions, SamplingMessage, SamplingResult } from './inputs';

/** What a question calls to be asked: the Context's own methods (so ask.ts needs no Context). */
export interface Asker {
  elicit<T extends object>(message: string, dto: new () => T, options: InputOptions): Promise<ElicitResult<T>>;
  elicitUrl(message: string, url: string, options: InputOptions): Promise<{ action: 'accept' | 'decline' | 'cancel' }>;
  sample(input: string | SamplingMessage[], options: SampleOptions): Promise<SamplingResult>;
  listRoots(options: InputOptions): Promise<{ uri: string; name?: string }[]>;
}

/**
 * One thing to ask the client, not asked yet: give several to `ctx.ask()` to ask them in one round. Build it
 * with {@link Ask}.
 */
export interface Question<T> {
  /** @internal Asks under `key` through the Context's own method. */
  readonly ask: (ctx: Asker, key: string) => Promise<T>;
}

/** The answers of `ctx.ask(questions)`: each key holds what the matching Context method resolves with. */
export type Answers<Q extends Record<string, Question<unknown>>> = { [K in keyof Q]: Q[K] extends Question<infer T> ? T : never };

/**
 * The questions `ctx.ask()` takes, one per Context method: the same arguments, without `key` (the property
 * name is the key).
 *
 * @example
 * const { user_name, greeting, client_roots } = await ctx.ask({
 *   user_name: Ask.elicit('What is your name?', UserName),
 *   greeting: Ask.sample('Write a one-line greeting', { maxTokens: 50 }),
 *   client_roots: Ask.roots(),
 * });
 */
export const Ask = {
  /** A form built from a DTO class, as `ctx.elicit(message, dto)`. */
  elicit<T extends object>(message: string, dto: new () => T): Question<ElicitResult<T>> {
    return { ask: (ctx, key) => ctx.elicit(message, dto, { key }) };
  },
  /** An interaction at a URL, as `ctx.elicitUrl(message, url)`. */
  elicitUrl(message: string, url: string): Question<{ action: 'accept' | 'decline' | 'cancel' }> {
    return { ask: (ctx, key) => ctx.elicitUrl(message, url, { key }) };
  },
  /** A completion from the client's model, as `ctx.sample(input, options)`. */
  sample(input: string | SamplingMessage[], options: Omit<SampleOptions, 'key'> = {}): Question<SamplingResult> {
    return { ask: (ctx, key) => ctx.sample(input, { ...options, key }) };
  },
  /** The client's roots, as `ctx.listRoots()`. */
  roots(): Question<{ uri: string; name?: string }[]> {
    return { ask: (ctx, key) => ctx.listRoots({ key }) };
  },
} as const;
