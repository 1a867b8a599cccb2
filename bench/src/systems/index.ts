import type { BenchSystem } from '../system';
import { limit } from './limit';
import { mcpReflect } from './mcp-reflect';
import { mcpServer } from './mcp-server';

/** Every system that could be loaded; a peer whose packages are missing is left out (and said so). */
export function loadSystems(): BenchSystem[] {
  const systems: BenchSystem[] = [limit, mcpServer, mcpReflect];
  for (const [file, exported] of [['./mcp-nest', 'mcpNest'], ['./fastmcp', 'fastmcp']] as const) {
    try {
      systems.push(require(file)[exported] as BenchSystem);
    } catch (error) {
      console.error(`(skipping ${exported}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)})`);
    }
  }
  return systems;
}
