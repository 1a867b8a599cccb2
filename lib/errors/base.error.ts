/** The base of every error mcp-reflect throws: a stable string `code` plus a message that says cause and fix. */
export class McpReflectError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}
