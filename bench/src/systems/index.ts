import { BASELINE_PREFIX, benchFile, checkBaselineCopy } from '../baseline';
import type { BenchSystem } from '../system';

/** Every system: its name, the module that implements it and the export. */
const SYSTEMS = [
  ['limit', './limit', 'limit'],
  ['McpServer+zod', './mcp-server', 'mcpServer'],
  ['mcp-reflect', './mcp-reflect', 'mcpReflect'],
  ['mcp-reflect+zod', './mcp-reflect-zod', 'mcpReflectZod'],
  ['mcp-nest', './mcp-nest', 'mcpNest'],
  ['mcp-reflect-nest', './mcp-reflect-nest', 'mcpReflectNest'],
  ['fastmcp', './fastmcp', 'fastmcp'],
] as const;

/**
 * Loads one system, and only its packages (a measuring process holds nothing else). `mcp-reflect@<rev>` is
 * the mcp-reflect system on the library built at <rev> (baseline.ts), in a process started from the baseline's
 * copy of the bench (benchFile), where `mcp-reflect` resolves to that build: checked once, before it loads.
 */
export function loadSystem(name: string): BenchSystem {
  if (name.startsWith(BASELINE_PREFIX)) {
    checkBaselineCopy(name, require.resolve('mcp-reflect'));
    return { ...(require('./mcp-reflect').mcpReflect as BenchSystem), name, stdio: baselineStdio(name) };
  }
  const entry = SYSTEMS.find(([n]) => n === name);
  if (!entry) throw new Error(`Unknown system '${name}'`);
  return require(entry[1])[entry[2]] as BenchSystem;
}

/**
 * Every system that could be loaded, in the parent (which measures none of them); a peer whose packages are
 * missing is left out (and said so). A baseline comes right after mcp-reflect, described but not loaded: the
 * parent holds the current library, and the baseline runs only in processes of its own.
 */
export function loadSystems(baseline?: string): BenchSystem[] {
  const systems: BenchSystem[] = [];
  for (const [name] of SYSTEMS) {
    try {
      systems.push(loadSystem(name));
    } catch (error) {
      console.error(`(skipping ${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
    if (name === 'mcp-reflect' && baseline) systems.push(describeBaseline(baseline));
  }
  return systems;
}

/** A baseline's capabilities as the parent sees them; what measures runs in the baseline's own processes. */
function describeBaseline(name: string): BenchSystem {
  const elsewhere = (): never => {
    throw new Error(`${name} is measured in processes of its own (loadSystem in a worker), never in the parent`);
  };
  return { name, inMemory: elsewhere, httpStateless: elsewhere, httpStateful: elsewhere, bootstrap: elsewhere, stdio: baselineStdio(name) };
}

/** The stdio cold-start server of a baseline: the mcp-reflect one, from the baseline's copy of the bench. */
function baselineStdio(name: string, server = 'mcp-reflect.server'): NonNullable<BenchSystem['stdio']> {
  return (extra) => ({ command: process.execPath, args: [benchFile(name, `servers/${server}.js`), String(extra)] });
}

/**
 * The same for the `@Field()` DTO variant of the cold start: servers/mcp-reflect-field.server.ts, or for
 * mcp-reflect in Nest servers/mcp-reflect-nest-field.server.ts.
 */
export function fieldDtoStdio(name: string): NonNullable<BenchSystem['stdio']> {
  if (name.startsWith(BASELINE_PREFIX)) return baselineStdio(name, 'mcp-reflect-field.server');
  const server = name === 'mcp-reflect-nest' ? 'mcp-reflect-nest-field.server.js' : 'mcp-reflect-field.server.js';
  return (extra) => ({ command: process.execPath, args: [benchFile(name, `servers/${server}`), String(extra)] });
}
