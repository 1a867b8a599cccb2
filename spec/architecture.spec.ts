import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The house rules of ../shared/STYLE.md, checked on the source tree so a wrong arrow fails CI:
 * dependencies point one way, only lib/metadata touches Reflect, only lib/protocol (and the testing entry)
 * import the SDK, and no file grows past ~400 lines.
 */
const lib = path.resolve(__dirname, '..', 'lib');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : full.endsWith('.ts') ? [full] : [];
  });
}

const sources = files(lib).map((file) => {
  const text = readFileSync(file, 'utf8');
  const rel = path.relative(lib, file).split(path.sep).join('/');
  const imports = [...text.matchAll(/(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\s+['"]([^'"]+)['"]/g)].map(
    (m) => m[1] ?? m[2],
  );
  const internal = imports
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.relative(lib, path.resolve(path.dirname(file), spec)).split(path.sep).join('/'))
    .map((target) => target.split('/')[0].replace(/\.ts$/, ''));
  return { rel, area: rel.includes('/') ? rel.split('/')[0] : rel.replace(/\.ts$/, ''), text, imports, internal };
});

/** Which areas each area may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  constants: [],
  errors: [],
  interfaces: ['constants', 'context'],
  metadata: ['constants', 'interfaces'],
  decorators: ['metadata', 'interfaces', 'errors', 'constants'],
  di: ['metadata', 'interfaces', 'errors', 'constants'],
  schema: ['metadata', 'interfaces', 'errors', 'constants'],
  validation: ['interfaces', 'errors'],
  context: ['errors'],
  invocation: ['context', 'schema', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  catalogue: ['errors'],
  pipeline: ['auth', 'catalogue', 'invocation', 'context', 'validation', 'decorators', 'metadata', 'interfaces', 'errors', 'constants'],
  content: [],
  apps: ['metadata', 'interfaces', 'errors', 'constants'],
  auth: ['catalogue', 'context', 'interfaces', 'errors', 'constants'],
  builtins: ['pipeline', 'catalogue', 'decorators', 'context', 'metadata', 'interfaces', 'errors', 'constants'],
  tasks: ['catalogue', 'interfaces', 'errors'],
  tools: ['apps', 'tasks', 'content', 'pipeline', 'catalogue', 'invocation', 'context', 'schema', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  resources: ['apps', 'pipeline', 'catalogue', 'invocation', 'context', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  prompts: ['content', 'pipeline', 'catalogue', 'invocation', 'context', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  completions: ['pipeline', 'validation', 'invocation', 'context', 'metadata', 'interfaces', 'errors', 'constants'],
  protocol: ['apps', 'tasks', 'auth', 'pipeline', 'tools', 'resources', 'prompts', 'completions', 'invocation', 'context', 'interfaces', 'errors'],
  module: [
    'apps', 'tasks', 'auth', 'protocol', 'pipeline', 'tools', 'resources', 'prompts', 'completions', 'catalogue', 'invocation', 'di', 'context',
    'validation', 'decorators', 'metadata', 'interfaces', 'errors', 'constants',
  ],
  testing: ['module', 'interfaces'],
  generator: ['metadata', 'interfaces'],
  cli: ['generator', 'module', 'protocol', 'testing', 'metadata', 'errors'],
  // The subpath entries (mcp-reflect/common, /redis, /tasks, /builtins): each names the areas it re-exports.
  entries: ['decorators', 'errors', 'constants', 'context', 'interfaces', 'protocol', 'tasks', 'builtins'],
  index: ['tasks', 'builtins', 'pipeline', 'decorators', 'di', 'context', 'module', 'tools', 'resources', 'prompts', 'completions', 'errors', 'constants', 'interfaces'],
};

describe('architecture', () => {
  it('knows every area of lib/', () => {
    expect([...new Set(sources.map((s) => s.area))].sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it.each(Object.keys(ALLOWED))('keeps the dependencies of %s pointing one way', (area) => {
    const wrong = sources
      .filter((s) => s.area === area)
      .flatMap((s) => s.internal.filter((t) => t !== area && !ALLOWED[area].includes(t)).map((t) => `${s.rel} -> ${t}`));
    expect(wrong).toEqual([]);
  });

  it('imports the MCP SDK only from lib/protocol and lib/testing', () => {
    const wrong = sources
      .filter((s) => s.imports.some((i) => i.startsWith('@modelcontextprotocol/')))
      .filter((s) => s.area !== 'protocol' && s.area !== 'testing')
      .map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it('calls Reflect metadata only from lib/metadata', () => {
    const wrong = sources
      .filter((s) => /Reflect\.(get|define|has|getOwn|delete)[A-Za-z]*Metadata/.test(s.text) && s.area !== 'metadata')
      .map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it('reads class-validator metadata storage only from lib/schema', () => {
    const wrong = sources.filter((s) => s.text.includes('getMetadataStorage') && s.area !== 'schema').map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it('keeps every file under 400 lines', () => {
    const big = sources.filter((s) => s.text.split('\n').length > 400).map((s) => s.rel);
    expect(big).toEqual([]);
  });
});
