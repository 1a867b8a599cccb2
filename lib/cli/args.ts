import { usageError } from './cli.error';

/**
 * What a command accepts: its positional arguments by name and its options (a flag, one that takes a value, or
 * a `list` that may be given several times: its values joined by newlines).
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
  readonly options: Readonly<Record<string, string | true>>;
  /** The arguments after `--`, untouched, for a command with `rest` (empty otherwise). */
  readonly rest: readonly string[];
}

/**
 * Parses `argv` (after the command name) against `spec`: `--name value`, `--name=value`, flags, and `--`
 * ending the options: what follows it is positional, or, for a command with `rest`, kept as it is (options
 * included) in `rest`. Unknown options, missing values and missing or extra positionals are usage errors.
 */
export function parseArgs(argv: readonly string[], spec: CommandSpec): ParsedArgs {
  const positionals: string[] = [];
  const options: Record<string, string | true> = {};
  let onlyPositionals = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (onlyPositionals || !arg.startsWith('--')) {
      positionals.push(arg);
      continue;
    }
    if (arg === '--') {
      if (spec.rest !== undefined) return finish(positionals, options, argv.slice(i + 1), spec);
      onlyPositionals = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = arg.slice(2, eq === -1 ? undefined : eq);
    const kind = spec.options[name];
    if (kind === undefined) throw usageError(`Unknown option --${name} for \`mcp-reflect ${spec.name}\`.`);
    if (kind === 'flag') {
      if (eq !== -1) throw usageError(`Option --${name} of \`mcp-reflect ${spec.name}\` takes no value.`);
      options[name] = true;
    } else if (eq !== -1 || i + 1 < argv.length) {
      const value = eq !== -1 ? arg.slice(eq + 1) : argv[++i]!;
      const before = options[name];
      options[name] = kind === 'list' && typeof before === 'string' ? `${before}\n${value}` : value;
    } else {
      throw usageError(`Option --${name} of \`mcp-reflect ${spec.name}\` needs a value.`);
    }
  }
  return finish(positionals, options, [], spec);
}

function finish(positionals: readonly string[], options: Readonly<Record<string, string | true>>, rest: readonly string[], spec: CommandSpec): ParsedArgs {
  if (options.help) return { positionals, options, rest };
  if (positionals.length < spec.positionals.length) {
    const missing = spec.positionals.slice(positionals.length).map((p) => `<${p}>`).join(' ');
    throw usageError(`\`mcp-reflect ${spec.name}\` is missing ${missing}.`);
  }
  if (positionals.length > spec.positionals.length) {
    const extra = positionals[spec.positionals.length];
    const pass = spec.rest !== undefined ? ` To pass ${spec.rest}, put them after --, e.g. \`mcp-reflect ${spec.name} ${spec.positionals.map((p) => `<${p}>`).join(' ')} -- ${extra}\`.` : '';
    throw usageError(`\`mcp-reflect ${spec.name}\` got an unexpected argument: ${extra}.${pass}`);
  }
  return { positionals, options, rest };
}
