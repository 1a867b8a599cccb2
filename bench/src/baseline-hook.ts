import { existsSync } from 'node:fs';
import Module from 'node:module';
import path from 'node:path';

/**
 * Makes `mcp-reflect` (and its subpath entries) resolve, in this process only, to the copy installed in
 * `dir/node_modules/mcp-reflect` (a baseline, see baseline.ts) instead of bench/node_modules/mcp-reflect.
 * Everything else (the SDK, class-validator, reflect-metadata) still resolves from bench/node_modules, so the
 * baseline and the current tree run on the same copies of their dependencies and differ only in the library.
 *
 * Preloaded with `--require` (the stdio cold-start servers), it reads the folder from BENCH_MCP_REFLECT_DIR.
 */
export function useMcpReflectFrom(dir: string): void {
  const root = path.join(dir, 'node_modules', 'mcp-reflect');
  if (!existsSync(path.join(root, 'package.json'))) {
    throw new Error(`No baseline build of mcp-reflect in ${dir} (run the bench with --baseline=<rev> to build it)`);
  }
  const loader = Module as unknown as { _resolveFilename(request: string, parent: unknown, isMain: boolean, options?: object): string };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (request, parent, isMain, options) {
    if (request !== 'mcp-reflect' && !request.startsWith('mcp-reflect/')) return resolve.call(this, request, parent, isMain, options);
    const file = resolve.call(this, request, parent, isMain, { paths: [dir] });
    // `paths` walks up from dir: a copy without the entry would silently fall back to the current one.
    if (!file.startsWith(root + path.sep)) throw new Error(`${request} resolved to ${file}, outside the baseline ${root}`);
    return file;
  };
}

if (process.env.BENCH_MCP_REFLECT_DIR) useMcpReflectFrom(process.env.BENCH_MCP_REFLECT_DIR);
