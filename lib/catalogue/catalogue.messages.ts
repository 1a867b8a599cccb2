/** `app.tools.enable('x')` (and the like) for a name no component has. */
export function unknownComponentMessage(kind: string, name: string, known: readonly string[]): string {
  return (
    `Cannot change ${kind} '${name}': there is no ${kind} with that name.\n` +
    `Fix: use one of: ${known.length > 0 ? known.map((n) => `'${n}'`).join(', ') : `(no ${kind}s registered)`}.`
  );
}
