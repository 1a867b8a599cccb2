/** Names a tool method in messages: `tool 'add' (Calculator.add)`. */
export function toolOwner(toolName: string, className: string, method: string): string {
  return `tool '${toolName}' (${className}.${method})`;
}

export function invalidToolNameMessage(name: string, className: string, method: string): string {
  return (
    `Cannot register the tool of ${className}.${method}: '${name}' is not a valid MCP tool name. Names are 1 to 128 ` +
    `characters from A-Z, a-z, 0-9, '_', '-' and '.'.\n` +
    `Fix: name the tool explicitly, e.g. @Tool({ name: '${suggestName(name)}' }).`
  );
}

export function duplicateToolNameMessage(name: string, first: string, second: string): string {
  return (
    `Cannot register tool '${name}': both ${first} and ${second} use that name, and tool names must be unique in a server.\n` +
    `Fix: name one of them explicitly, e.g. @Tool({ name: '${name}_2' }) on ${second}.`
  );
}

function suggestName(name: string): string {
  const cleaned = name.replace(/[^A-Za-z0-9_.-]+/g, '_').slice(0, 128);
  return cleaned || 'my_tool';
}

/** A tools/call for a tool that does not exist, or that the caller may not see (spec: -32602). */
export function unknownToolMessage(name: string): string {
  return `Unknown tool: ${name}`;
}
