import { reflectModule } from '../systems/mcp-reflect';

/**
 * The mcp-reflect system's module as an entry's root module, for `mcp-reflect validators` (bench/src/precompiled.ts):
 * its tools' schemas are those of every tool count (the `tool_i` tools share one schema), so one file serves the
 * 50-tool cold start and the 1,000-tool bootstrap.
 */
export const BenchModule = reflectModule(48);
