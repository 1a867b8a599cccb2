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
