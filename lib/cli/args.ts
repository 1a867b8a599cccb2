import { parseArgs as parseTokens } from 'node:util';
import { usageError } from './cli.error';

/**
 * What a command accepts: its positional arguments by name and its options (a flag, one that takes a value, or
 * a `list` that may be given several times).
 */
export interface CommandSpec {
  readonly name: string;
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, 'flag' | 'value' | 'list'>>;
  /** What the arguments after `--` are (`install`: the entry's own), when the command takes them as they are. */
  readonly rest?: string;
}

export interface ParsedArgs {
  readonly positionals: readonly string[];
  /** Flags (`true`) and options with one value (the last given). */
  readonly options: Readonly<Record<string, string | true>>;
  /** The values of each `list` option, in the order given (each value as it is: newlines included). */
  readonly lists: Readonly<Record<string, readonly string[]>>;
  /** The arguments after `--`, untouched, for a command with `rest` (empty otherwise). */
  readonly rest: readonly string[];
}

/**
 * Parses `argv` (after the command name) against `spec` with Node's own parser (`node:util` parseArgs): `--name
 * value`, `--name=value`, flags, and `--` ending the options: what follows it is positional, or, for a command
 * with `rest`, kept as it is (options included) in `rest`. Unknown options, missing values and missing or extra
 * positionals are usage errors naming the command.
 */
export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const config = Object.fromEntries(
    Object.entries(spec.options).map(([name, kind]) => [name, kind === 'flag' ? { type: 'boolean' as const } : { type: 'string' as const, multiple: kind === 'list' }]),
  );
  // Not strict: a value that starts with a dash (`--args -1`) is the option's, and the mistakes are worded here.
  const { tokens } = parseTokens({ args: [...argv], options: config, strict: false, allowPositionals: true, tokens: true });
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  const lists: Record<string, string[]> = {};
  for (const token of tokens) {
    if (token.kind === 'option-terminator') {
      if (spec.rest !== undefined) return finish(positionals, options, lists, argv.slice(token.index + 1), spec);
      continue;
    }
    if (token.kind === 'positional') {
      positionals.push(token.value);
      continue;
    }
    const kind = token.rawName.startsWith('--') ? spec.options[token.name] : undefined;
    if (kind === undefined) throw usageError(`Unknown option ${token.rawName} for \`mcp-reflect ${spec.name}\`.`);
    if (kind === 'flag') {
      if (token.inlineValue) throw usageError(`Option --${token.name} of \`mcp-reflect ${spec.name}\` takes no value.`);
      options[token.name] = true;
    } else if (token.value === undefined) {
      throw usageError(`Option --${token.name} of \`mcp-reflect ${spec.name}\` needs a value.`);
    } else if (kind === 'list') {
      (lists[token.name] ??= []).push(token.value);
    } else {
      options[token.name] = token.value;
    }
  }
  return finish(positionals, options, lists, [], spec);
}

function finish(positionals: readonly string[], options: Readonly<Record<string, string | true>>, lists: Readonly<Record<string, readonly string[]>>, rest: readonly string[], spec: CommandSpec): ParsedArgs {
  if (options.help) return { positionals, options, lists, rest };
  if (positionals.length < spec.positionals.length) {
    const missing = spec.positionals.slice(positionals.length).map((p) => `<${p}>`).join(' ');
    throw usageError(`\`mcp-reflect ${spec.name}\` is missing ${missing}.`);
  }
  if (positionals.length > spec.positionals.length) {
    const extra = positionals[spec.positionals.length];
    const pass = spec.rest !== undefined ? ` To pass ${spec.rest}, put them after --, e.g. \`mcp-reflect ${spec.name} ${spec.positionals.map((p) => `<${p}>`).join(' ')} -- ${extra}\`.` : '';
    throw usageError(`\`mcp-reflect ${spec.name}\` got an unexpected argument: ${extra}.${pass}`);
  }
  return { positionals, options, lists, rest };
}
