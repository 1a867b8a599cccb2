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
    expect(node(`require('mcp-reflect'); require('mcp-reflect/testing'); ${loadedNest}`).out).toBe('0');
    expect(Number(node(`require('mcp-reflect/nest'); ${loadedNest}`).out)).toBeGreaterThan(0);
  });

  it('names the packages to install when Nest is missing', () => {
    const hideNest = `const M = require('node:module'); const r = M._resolveFilename; M._resolveFilename = function (request, ...rest) { if (request === '@nestjs/core' || request === 'rxjs') throw Object.assign(new Error('not found'), { code: 'MODULE_NOT_FOUND' }); return r.call(this, request, ...rest); };`;
    const { err, status } = node(`${hideNest} require('mcp-reflect/nest');`);
    expect(status).not.toBe(0);
    expect(err).toContain('Cannot load mcp-reflect/nest: @nestjs/core, rxjs are not installed');
    expect(err).toContain('Fix: npm install @nestjs/common @nestjs/core rxjs');
  });
});
