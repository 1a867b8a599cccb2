/** How many names one log line gives before "and N more". */
const NAMED = 5;

/**
 * Text from a source the application does not control (a remote, a provider, a document), fit for a log line:
 * control and bidirectional-override characters escaped (`\u001b`), so that a name or a message cannot forge log
 * lines or recolour a terminal, and at most `max` characters.
 */
export function printable(text: unknown, max = 2_000): string {
  const value = String(text);
  const cut = value.length > max ? `${value.slice(0, max)}…` : value;
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Up to five names, quoted and escaped, then how many more. */
export function namesOf(names: readonly string[]): string {
  const shown = names.slice(0, NAMED).map((name) => `'${printable(name, 100)}'`);
  return names.length > NAMED ? `${shown.join(', ')} and ${names.length - NAMED} more` : shown.join(', ');
}
