/** What a command prints on stdout (and on stderr) and the exit code it asks for. */
export interface CommandOutput {
  readonly stdout: string;
  readonly stderr?: string;
  readonly exitCode: 0 | 1 | 2;
}
