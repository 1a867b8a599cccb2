/** Human names for values that appear in messages: classes by name, strings quoted, symbols as written. */
export function describeToken(token: unknown): string {
  if (typeof token === 'function') return token.name || 'an anonymous class';
  if (typeof token === 'symbol') return token.toString();
  if (typeof token === 'string') return `'${token}'`;
  return String(token);
}

/** Indents every line of a nested cause, so chains read as a tree. */
export function indent(text: string, by = '    '): string {
  return text
    .split('\n')
    .map((line) => (line ? by + line : line))
    .join('\n');
}

/** A value as a message shows what a user gave: `function Name`, `an instance of Class`, or its JSON. */
export function describeValue(value: unknown): string {
  if (typeof value === 'function') return `function ${value.name || '(anonymous)'}`;
  if (typeof value === 'object' && value !== null) return `an instance of ${value.constructor?.name ?? 'Object'}`;
  if (value === undefined) return 'undefined';
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/** A message fragment that starts a sentence: its first letter in capitals. */
export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
