import { usageError } from './cli.error';

/**
 * What a command accepts: its positional arguments by name and its options (a flag, one that takes a value, or
 * a `list` that may be given several times: its values joined by newlines).
 */
export interface CommandSpec {
  readonly name: string;
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, 'flag' | 'value' | 'list'>>;
}

export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly options: Readonly<Record<string, string | true>>;
}

/**
 * Parses `argv` (after the command name) against `spec`: `--name value`, `--name=value`, flags, and `--`
 * ending the options. Unknown options, missing values and missing or extra positionals are usage errors.
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
  if (options.help) return { positionals, options };
  if (positionals.length < spec.positionals.length) {
    const missing = spec.positionals.slice(positionals.length).map((p) => `<${p}>`).join(' ');
    throw usageError(`\`mcp-reflect ${spec.name}\` is missing ${missing}.`);
  }
  if (positionals.length > spec.positionals.length) {
    throw usageError(`\`mcp-reflect ${spec.name}\` got an unexpected argument: ${positionals[spec.positionals.length]}.`);
  }
  return { positionals, options };
}
