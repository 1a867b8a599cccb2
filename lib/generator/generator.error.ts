/** A failure of `mcp-reflect generate` the user can fix: the cause, then the fix. */
export class GeneratorError extends Error {
  constructor(
    cause: string,
    readonly fix: string,
    readonly exitCode: 1 | 2 = 1,
  ) {
    super(`${cause}\n${fix}`);
    this.name = 'GeneratorError';
  }
}
