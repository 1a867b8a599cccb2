import { McpReflectError } from '../errors';

/** Stable codes of the CLI's own errors; each maps to an exit code (2: usage, 1: runtime). */
export const CliErrorCode = {
  Usage: 'CLI_USAGE',
  EntryNotFound: 'CLI_ENTRY_NOT_FOUND',
  EntryLoadFailed: 'CLI_ENTRY_LOAD_FAILED',
  TypeScriptLoaderMissing: 'CLI_TYPESCRIPT_LOADER_MISSING',
  NoModule: 'CLI_NO_MODULE',
  BootstrapFailed: 'CLI_BOOTSTRAP_FAILED',
  CallFailed: 'CLI_CALL_FAILED',
  MetadataNotFound: 'CLI_METADATA_NOT_FOUND',
  MetadataLoadFailed: 'CLI_METADATA_LOAD_FAILED',
  InspectorUnavailable: 'CLI_INSPECTOR_UNAVAILABLE',
} as const;
export type CliErrorCode = (typeof CliErrorCode)[keyof typeof CliErrorCode];

/** An error the CLI prints as one paragraph on stderr (never a stack trace) before it exits with `exitCode`. */
export class CliError extends McpReflectError {
  declare readonly code: CliErrorCode;
  readonly exitCode: 1 | 2;
  constructor(code: CliErrorCode, message: string, options?: { cause?: unknown }) {
    super(code, message, options);
    this.exitCode = code === CliErrorCode.Usage || code === CliErrorCode.EntryNotFound || code === CliErrorCode.MetadataNotFound ? 2 : 1;
  }
}

export function usageError(message: string): CliError {
  return new CliError(CliErrorCode.Usage, `${message}\nRun \`mcp-reflect --help\` for usage.`);
}
