/** What a tool asks the client for, in the library's own words; the protocol layer builds the wire request. */
export type InputSpec =
  | { readonly kind: 'elicit'; readonly message: string; readonly requestedSchema: Record<string, unknown> }
  | { readonly kind: 'elicitUrl'; readonly message: string; readonly url: string }
  | { readonly kind: 'sample'; readonly params: Record<string, unknown> }
  | { readonly kind: 'roots' };

/**
 * Thrown by `ctx.elicit()`, `ctx.sample()` and `ctx.listRoots()` when the answer is not there yet: the server
 * returns an input-required result (2026-07-28) or the SDK asks the client directly (2025 eras), then runs
 * the method again with the answer available. Never catch it in a tool.
 */
export class InputRequiredSignal extends Error {
  /** Marks the signal for `rethrowIfInputRequired()`, across copies of the library. */
  readonly inputRequired = true;
  /** Every input asked for in this round: one, or several from `ctx.ask()` (the first is `key` / `spec`). */
  readonly requests: readonly { readonly key: string; readonly spec: InputSpec }[];
  constructor(
    readonly key: string,
    readonly spec: InputSpec,
    requests?: readonly { readonly key: string; readonly spec: InputSpec }[],
    /** An opaque value sealed with the round and given back to the method when it is re-entered (a forwarding layer's own state). */
    readonly carry?: string,
  ) {
    super(
      requests && requests.length > 1
        ? `Inputs ${requests.map((r) => `'${r.key}'`).join(', ')} are required from the client (the call will be re-entered with them).`
        : `Input '${key}' is required from the client (the call will be re-entered with it).`,
    );
    this.name = 'InputRequiredSignal';
    this.requests = requests && requests.length > 0 ? requests : [{ key, spec }];
  }
}

/** An elicitation form compiled from a DTO class: the schema sent, and how the answer is checked. */
export interface ElicitationForm {
  readonly requestedSchema: Record<string, unknown>;
  parse(content: unknown): { ok: true; value: object } | { ok: false; issues: readonly string[] };
}

/** The multi-round-trip side of a request: answers already given, and how to ask for more. */
export interface InteractionChannel {
  /** The client's answer for `key`, if a previous round collected it. */
  response(key: string): unknown;
  form(dto: Function): ElicitationForm;
  readResource(uri: string): Promise<unknown[]>;
  /** Told of every input request the method raises (a task asks for all of them at once). */
  raised?(signal: InputRequiredSignal): void;
  /** The value the round before carried (`InputRequiredSignal.carry`), verified with the round's state. */
  carried?(): string | undefined;
}

/**
 * Rethrows `error` when it is the signal by which `ctx.elicit()`, `ctx.elicitUrl()`, `ctx.sample()` or
 * `ctx.listRoots()` asks the client for input (the method is re-entered with the answer). Call it first in a
 * `catch` that surrounds one of them, so the request reaches the client.
 *
 * @example
 * try {
 *   const answer = await ctx.elicit('Which city?', CityForm);
 * } catch (error) {
 *   rethrowIfInputRequired(error);
 *   throw new ToolError('Could not ask for the city.');
 * }
 */
export function rethrowIfInputRequired(error: unknown): void {
  if (error instanceof InputRequiredSignal || (error as { inputRequired?: unknown } | null)?.inputRequired === true) throw error;
}
