import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';

/**
 * The house rules of ../shared/STYLE.md, checked on the source tree so a wrong arrow fails CI:
 * dependencies point one way between folders (no circle), only lib/metadata touches Reflect, only the SDK
 * adapter (server/), the transports, scale-out, auth (its HTTP gate) and the testing entry import the SDK, and no
 * file grows past ~400 lines.
 */
const lib = path.resolve(__dirname, '..', 'lib');

/** The area of a path inside lib/: its first folder (or its file). */
function areaOf(rel: string): string {
  return rel.includes('/') ? rel.split('/')[0] : rel.replace(/\.ts$/, '');
}

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
    .map(areaOf);
  return { rel, area: areaOf(rel), text, imports, internal };
});

/** Which areas each area may import (besides itself). */
const ALLOWED: Record<string, string[]> = {
  constants: [],
  // The one loader of optional and ESM-only peers, and what a Workers runtime allows at import (nothing at module scope).
  runtime: ['errors'],
  errors: [],
  interfaces: ['constants', 'context'],
  metadata: ['constants', 'interfaces'],
  decorators: ['metadata', 'interfaces', 'errors', 'constants'],
  di: ['metadata', 'interfaces', 'errors', 'constants'],
  schema: ['metadata', 'interfaces', 'errors', 'constants'],
  validation: ['interfaces', 'errors'],
  context: ['state', 'errors'],
  // ctx.state: the caller's values and the stores they live in.
  state: ['errors'],
  invocation: ['context', 'schema', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  catalogue: ['errors'],
  pipeline: ['catalogue', 'invocation', 'context', 'validation', 'decorators', 'metadata', 'interfaces', 'errors', 'constants'],
  content: [],
  apps: ['metadata', 'interfaces', 'errors', 'constants'],
  builtins: ['runtime', 'pipeline', 'catalogue', 'decorators', 'context', 'metadata', 'interfaces', 'errors', 'constants'],
  tasks: ['catalogue', 'interfaces', 'errors'],
  tools: ['apps', 'tasks', 'content', 'pipeline', 'catalogue', 'invocation', 'context', 'schema', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  resources: ['apps', 'pipeline', 'catalogue', 'invocation', 'context', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  prompts: ['content', 'pipeline', 'catalogue', 'invocation', 'context', 'validation', 'metadata', 'interfaces', 'errors', 'constants'],
  completions: ['pipeline', 'validation', 'invocation', 'context', 'metadata', 'interfaces', 'errors', 'constants'],
  // The SDK server adapter (with the tasks methods on the wire in server/tasks/): the registries behind SDK handlers.
  server: ['runtime', 'apps', 'state', 'tasks', 'pipeline', 'tools', 'resources', 'prompts', 'completions', 'invocation', 'context', 'interfaces', 'errors'],
  // The resource server: access-token verification and the HTTP bearer gate (RFC 6750, RFC 9728), on the server's types.
  auth: ['runtime', 'server', 'catalogue', 'invocation', 'context', 'interfaces', 'errors', 'constants'],
  // stdio, in-memory connections and Streamable HTTP: they serve what the server factory makes.
  transports: ['auth', 'server', 'invocation', 'context', 'interfaces', 'errors'],
  // Redis adapters of the stores and the bus the server and transports define.
  'scale-out': ['runtime', 'transports', 'server', 'state', 'tasks', 'errors'],
  // A remote MCP server as a provider: the SDK client, and its components as decorated methods of a class.
  // (schema: a remote tool's schema must be one that can be sent without $ref.)
  proxy: ['resources', 'content', 'decorators', 'schema', 'catalogue', 'context', 'metadata', 'interfaces', 'errors'],
  // An HTTP API described by OpenAPI as a provider: its operations as decorated methods of a class, calling it with fetch.
  // (schema: the rule for patterns from others, shared with proxy: schema/safe-pattern.ts.)
  openapi: ['runtime', 'content', 'decorators', 'catalogue', 'context', 'schema', 'interfaces', 'errors'],
  // The composition root: an application on a host (host/), the standalone container's host (host/native/).
  host: [
    'openapi', 'proxy', 'apps', 'state', 'tasks', 'auth', 'server', 'transports', 'pipeline', 'tools', 'resources', 'prompts', 'completions', 'catalogue', 'invocation', 'di',
    'context', 'validation', 'decorators', 'metadata', 'interfaces', 'errors', 'constants',
  ],
  // mcp-reflect/nest: the NestJS host (the only importer of @nestjs/* and rxjs).
  nest: ['auth', 'host', 'openapi', 'proxy', 'server', 'transports', 'pipeline', 'invocation', 'context', 'metadata', 'interfaces', 'errors', 'constants'],
  testing: ['host', 'context', 'interfaces'],
  generator: ['runtime', 'metadata', 'interfaces'],
  // validation: `mcp-reflect validators` writes validators under the key the application looks them up by.
  // nest: a Nest root module is booted by mcp-reflect/nest (lib/nest/cli-application.ts), required lazily, only for
  // such an entry (lib/cli/application.ts), so that the CLI never loads @nestjs/* for a standalone application.
  cli: ['nest', 'generator', 'host', 'testing', 'validation', 'metadata', 'errors', 'constants'],
  // The subpath entries (mcp-reflect/common, /redis, /tasks, /builtins, /auth-server): each names the areas it re-exports.
  entries: ['decorators', 'errors', 'constants', 'context', 'interfaces', 'scale-out', 'tasks', 'builtins', 'auth'],
  index: [
    'openapi', 'proxy', 'state', 'tasks', 'builtins', 'pipeline', 'decorators', 'di', 'context', 'host', 'server', 'transports', 'scale-out', 'tools', 'resources', 'prompts',
    'completions', 'errors', 'constants', 'interfaces',
  ],
};

type Node = { type?: string; [key: string]: unknown };
const ast = new Map<string, Node[]>();
/** The statements of a file, parsed by swc (comments and strings are never mistaken for code). */
function statements(s: { rel: string; text: string }): Node[] {
  if (!ast.has(s.rel)) ast.set(s.rel, parseSync(s.text, { syntax: 'typescript', decorators: true, tsx: false }).body as unknown as Node[]);
  return ast.get(s.rel)!;
}

/** Every node under `node`, not entering what `skip` refuses (types are never entered: they are not code). */
function walk(node: unknown, visit: (n: Node) => void, skip: (n: Node) => boolean = () => false): void {
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit, skip));
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  if (typeof n.type === 'string' && (n.type.startsWith('Ts') || skip(n))) return;
  if (typeof n.type === 'string') visit(n);
  for (const [key, value] of Object.entries(n)) if (key !== 'span') walk(value, visit, skip);
}

const literalOf = (node: unknown): string | undefined => {
  const n = node as { type?: string; value?: unknown; quasis?: { cooked?: string }[]; expressions?: unknown[] } | undefined;
  if (n?.type === 'StringLiteral') return String(n.value);
  if (n?.type === 'TemplateLiteral' && n.expressions?.length === 0) return n.quasis?.[0]?.cooked;
  return undefined;
};

/** The `require('x')` and `import(x)` calls of a file, with their literal argument. */
function calls(s: { rel: string; text: string }): { callee: 'require' | 'import'; argument?: string }[] {
  const found: { callee: 'require' | 'import'; argument?: string }[] = [];
  walk(statements(s), (n) => {
    if (n.type !== 'CallExpression') return;
    const callee = n.callee as Node & { value?: string };
    const argument = literalOf((n.arguments as { expression: unknown }[])[0]?.expression);
    if (callee.type === 'Import') found.push({ callee: 'import', argument });
    else if (callee.type === 'Identifier' && callee.value === 'require') found.push({ callee: 'require', argument });
  });
  return found;
}

/** The modules a file imports as values (`import type` and type-only specifiers aside). */
function valueImports(s: { rel: string; text: string }): string[] {
  return statements(s)
    .filter((n) => (n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') && n.source && !n.typeOnly)
    .filter((n) => n.type !== 'ImportDeclaration' || (n.specifiers as Node[]).length === 0 || (n.specifiers as Node[]).some((spec) => !spec.isTypeOnly))
    .map((n) => String((n.source as { value: string }).value));
}

/** What a file does when it is imported (its statements, not the functions and methods they declare) that workerd refuses. */
function moduleScopeRefusals(s: { rel: string; text: string }): string[] {
  const refused: string[] = [];
  const later = (n: Node) => /^(ArrowFunctionExpression|FunctionExpression|FunctionDeclaration|ClassMethod|PrivateMethod|Constructor|GetterProperty|SetterProperty|MethodProperty)$/.test(String(n.type)) || ((n.type === 'ClassProperty' || n.type === 'PrivateProperty') && !n.isStatic);
  const name = (n: unknown) => (n as { value?: string } | undefined)?.value;
  walk(
    statements(s),
    (n) => {
      if (n.type === 'NewExpression' && name(n.callee) === 'AbortController') refused.push('new AbortController()');
      if (n.type !== 'CallExpression') return;
      const callee = n.callee as Node;
      if (callee.type === 'Identifier' && /^set(Timeout|Interval|Immediate)$/.test(String(name(callee)))) refused.push(`${name(callee)}()`);
      if (callee.type === 'MemberExpression') {
        const [object, property] = [name(callee.object), name(callee.property)];
        if (/^(getRandomValues|randomUUID|randomBytes|randomInt)$/.test(String(property))) refused.push(`${property}()`);
        if (object === 'AbortSignal' && /^(timeout|abort|any)$/.test(String(property))) refused.push(`AbortSignal.${property}()`);
      }
    },
    later,
  );
  return refused;
}

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

  it('imports the MCP SDK only from the server adapter, the transports, scale-out, auth, the client of a proxy and lib/testing', () => {
    const sdk = ['server', 'transports', 'scale-out', 'auth', 'proxy', 'testing'];
    const wrong = sources
      .filter((s) => s.imports.some((i) => i.startsWith('@modelcontextprotocol/')))
      .filter((s) => !sdk.includes(s.area))
      .map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it('has no import circle between areas: the allowed arrows themselves form layers', () => {
    const circles: string[] = [];
    const visit = (area: string, path: string[]): void => {
      if (path.includes(area)) {
        circles.push([...path.slice(path.indexOf(area)), area].join(' -> '));
        return;
      }
      for (const next of ALLOWED[area] ?? []) visit(next, [...path, area]);
    };
    for (const area of Object.keys(ALLOWED)) visit(area, []);
    expect(circles).toEqual([]);
  });

  it('re-exports by name, never with export * (a barrel shows what a folder offers)', () => {
    expect(sources.filter((s) => /^export \*/m.test(s.text)).map((s) => s.rel)).toEqual([]);
  });

  it('imports @nestjs/* and rxjs only from lib/nest (the core never loads them)', () => {
    const wrong = sources.filter((s) => s.imports.some((i) => i.startsWith('@nestjs/') || i === 'rxjs' || i.startsWith('rxjs/')) && s.area !== 'nest').map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it('loads the OpenAPI $ref parser only from lib/openapi, and only when a document is read (through the peer loader)', () => {
    const parser = '@apidevtools/json-schema-ref-parser';
    const statically = sources.filter((s) => s.imports.includes(parser)).map((s) => s.rel);
    const lazily = sources.filter((s) => /loadPeer\(PARSER\b/.test(s.text) && s.text.includes(`'${parser}'`)).map((s) => s.rel);
    expect(statically).toEqual([]);
    expect(lazily).toEqual(['openapi/document-loader.ts']);
  });

  // The optional peers (package.json's peerDependenciesMeta) but those of mcp-reflect/nest, its own entry.
  const optionalPeers = Object.keys(require('../package.json').peerDependenciesMeta as Record<string, unknown>).filter((name) => !name.startsWith('@nestjs/') && name !== 'rxjs');
  const isPeer = (spec: string | undefined) => spec !== undefined && optionalPeers.some((name) => spec === name || spec.startsWith(`${name}/`));

  it('reaches an optional peer only through lib/runtime/peer.ts (a bundle of an app without the feature resolves without it)', () => {
    expect(optionalPeers).toEqual(expect.arrayContaining(['oidc-provider', 'openid-client', 'bullmq', '@apidevtools/json-schema-ref-parser', '@opentelemetry/api']));
    const wrong = sources.flatMap((s) => [
      ...calls(s).filter((c) => isPeer(c.argument)).map((c) => `${s.rel}: ${c.callee}('${c.argument}')`),
      ...valueImports(s).filter(isPeer).map((spec) => `${s.rel}: import from '${spec}'`),
    ]);
    expect(wrong).toEqual([]);
  });

  it("has no import() in lib/ (a CommonJS consumer's loader, jest's included, cannot follow it without flags)", () => {
    const wrong = sources.flatMap((s) => calls(s).filter((c) => c.callee === 'import').map((c) => `${s.rel}: import(${c.argument ?? '…'})`));
    expect(wrong).toEqual([]);
  });

  it("uses no private hook of Node's module system to load modules (Module._load, require.cache)", () => {
    const wrong = sources.filter((s) => /Module\._load\b|\brequire\.cache\b/.test(s.text)).map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it('does nothing at import that a Workers runtime refuses (AbortController, timers, random values in the global scope)', () => {
    const wrong = sources.flatMap((s) => moduleScopeRefusals(s).map((what) => `${s.rel}: ${what}`));
    expect(wrong).toEqual([]);
  });

  it('loads the JSON Schema interpreter (@cfworker/json-schema) only from lib/validation/interpreted.ts, when a schema is interpreted', () => {
    const engine = '@cfworker/json-schema';
    expect(sources.filter((s) => s.imports.includes(engine)).map((s) => s.rel)).toEqual([]);
    expect(sources.filter((s) => s.text.includes(`require('${engine}')`)).map((s) => s.rel)).toEqual(['validation/interpreted.ts']);
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
