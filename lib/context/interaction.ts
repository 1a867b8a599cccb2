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
  constructor(
    readonly key: string,
    readonly spec: InputSpec,
  ) {
    super(`Input '${key}' is required from the client (the call will be re-entered with it).`);
    this.name = 'InputRequiredSignal';
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
}
