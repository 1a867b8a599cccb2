import type { BenchSystem } from '../system';

/** Every system: its name, the module that implements it and the export. */
const SYSTEMS = [
  ['limit', './limit', 'limit'],
  ['McpServer+zod', './mcp-server', 'mcpServer'],
  ['mcp-reflect', './mcp-reflect', 'mcpReflect'],
  ['mcp-nest', './mcp-nest', 'mcpNest'],
  ['fastmcp', './fastmcp', 'fastmcp'],
] as const;

/** Loads one system, and only its packages (a measuring process holds nothing else). */
export function loadSystem(name: string): BenchSystem {
  const entry = SYSTEMS.find(([n]) => n === name);
  if (!entry) throw new Error(`Unknown system '${name}'`);
  return require(entry[1])[entry[2]] as BenchSystem;
}

/** Every system that could be loaded; a peer whose packages are missing is left out (and said so). */
export function loadSystems(): BenchSystem[] {
  const systems: BenchSystem[] = [];
  for (const [name] of SYSTEMS) {
    try {
      systems.push(loadSystem(name));
    } catch (error) {
      console.error(`(skipping ${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  return systems;
}
