import { spawnSync } from 'node:child_process';
import path from 'node:path';

/** The NestJS host is a subpath of its own: the core never loads Nest, and the subpath says what it needs. */
const root = path.resolve(__dirname, '..', '..');
const node = (script: string) => {
  const result = spawnSync(process.execPath, ['-r', './spec/support/register.js', '-e', script], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
  return { out: result.stdout.trim(), err: result.stderr, status: result.status };
};
const loadedNest = `console.log(Object.keys(require.cache).filter((f) => f.includes('/@nestjs/') || f.includes('/rxjs/')).length)`;

describe('the mcp-reflect/nest entry', () => {
  it('is not loaded by the main entry or mcp-reflect/testing, though Nest is installed', () => {
    expect(node(`require('./lib/index.ts'); require('./lib/testing/index.ts'); ${loadedNest}`).out).toBe('0');
    expect(Number(node(`require('./lib/nest/index.ts'); ${loadedNest}`).out)).toBeGreaterThan(0);
  });
  // Without Nest installed (a consumer of the packed package), it names the packages to install: spec/package/bundle.spec.ts.
});
