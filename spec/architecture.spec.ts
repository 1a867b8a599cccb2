import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseSync } from '@swc/core';

/**
 * The house rules of ../shared/STYLE.md, checked on the source tree (its edges parsed by swc, not matched as text) so a wrong
 * arrow fails CI: dependencies point one way between folders (no circle) whatever the edge (static or type-only
 * import/export, `export type *`, a lazy `require()`, `import()`, `typeof import()`), only lib/metadata touches Reflect, only the SDK
 * adapter (server/), the transports, scale-out, auth (its HTTP gate) and the testing entry import the SDK, and no
 * file grows past ~400 lines.
 */
const lib = path.resolve(__dirname, '..', 'lib');

/** The area of a path inside lib/: its first folder (or its file). */
function areaOf(rel: string): string {
  return rel.includes('/') ? rel.split('/')[0] : rel.replace(/\.ts$/, '');
}

/**
 * The files under `dir` whose names are `wanted` (TypeScript by default). Skipped: node_modules, dot folders, and
 * tmp-* folders, other specs' scratch projects (spec/fixtures/tmp-generate-…), written while this runs, some broken on purpose.
 */
function files(dir: string, wanted = (name: string) => name.endsWith('.ts')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' || name.startsWith('.') || name.startsWith('tmp-') ? [] : files(full, wanted);
    return wanted(name) ? [full] : [];
  });
}

type Node = { type?: string; [key: string]: unknown };
const parsed = new Map<string, Node[]>();
/** The statements of a source text, parsed by swc (comments and strings are never mistaken for code). */
function parse(text: string): Node[] {
  if (!parsed.has(text)) parsed.set(text, parseSync(text, { syntax: 'typescript', decorators: true, tsx: false }).body as unknown as Node[]);
  return parsed.get(text)!;
}

/** Every node under `node`, types included (a `require()` hides in `as typeof import(...)`), not entering what `skip` refuses. */
function walk(node: unknown, visit: (n: Node) => void, skip: (n: Node) => boolean = () => false): void {
  if (Array.isArray(node)) return node.forEach((child) => walk(child, visit, skip));
  if (!node || typeof node !== 'object') return;
  const n = node as Node;
  if (typeof n.type === 'string' && skip(n)) return;
  if (typeof n.type === 'string') visit(n);
  for (const [key, value] of Object.entries(n)) if (key !== 'span') walk(value, visit, skip);
}

const literalOf = (node: unknown): string | undefined => {
  const n = node as { type?: string; value?: unknown; quasis?: { cooked?: string }[]; expressions?: unknown[] } | undefined;
  if (n?.type === 'StringLiteral') return String(n.value);
  if (n?.type === 'TemplateLiteral' && n.expressions?.length === 0) return n.quasis?.[0]?.cooked;
  return undefined;
};

/**
 * How a file reaches another module. Every one is an edge of the law, whether it loads code or not:
 * - `import` / `export … from` (with `import type`, `export type … from` and `export type *`): the static edges;
 * - `require('x')` (lazy or not) and `import x = require('x')`: a lazy require is an arrow like any other, it only
 *   loads later, so it must be an allowed arrow too (and the circle check covers it);
 * - `import('x')` (a call) and `typeof import('x')` / `import('x').T` (a type): a type-only edge is still an edge,
 *   since the file cannot compile without the other area and the other area's shape leaks into it.
 */
type Edge = { spec: string; how: 'static' | 'require' | 'import()' | 'type' };

/** The edges of a source text. */
function edgesOf(text: string): Edge[] {
  const found: Edge[] = [];
  walk(parse(text), (n) => {
    if ((n.type === 'ImportDeclaration' || n.type === 'ExportNamedDeclaration' || n.type === 'ExportAllDeclaration') && n.source) {
      found.push({ spec: String((n.source as { value: string }).value), how: 'static' });
    } else if (n.type === 'TsExternalModuleReference') {
      found.push({ spec: String(literalOf(n.expression)), how: 'require' });
    } else if (n.type === 'TsImportType') {
      found.push({ spec: String(literalOf(n.argument)), how: 'type' });
    } else if (n.type === 'CallExpression') {
      const callee = n.callee as Node & { value?: string };
      const spec = literalOf((n.arguments as { expression: unknown }[])[0]?.expression);
      if (spec === undefined) return;
      if (callee.type === 'Import') found.push({ spec, how: 'import()' });
      else if (callee.type === 'Identifier' && callee.value === 'require') found.push({ spec, how: 'require' });
    }
  });
  return found;
}

/** The lib/ areas a file at `rel` (in lib/) reaches, by its relative edges; a file outside lib/ (package.json) is no area. */
function internalEdges(rel: string, edges: Edge[]): { area: string; edge: Edge }[] {
  return edges
    .filter((edge) => edge.spec.startsWith('.'))
    .map((edge) => ({ edge, target: path.posix.join(path.posix.dirname(rel), edge.spec) }))
    .filter(({ target }) => !target.startsWith('../'))
    .map(({ edge, target }) => ({ area: areaOf(target), edge }));
}

const sources = files(lib).map((file) => {
  const text = readFileSync(file, 'utf8');
  const rel = path.relative(lib, file).split(path.sep).join('/');
  const edges = edgesOf(text);
  /** What the file reaches statically (import/export declarations). */
  const imports = edges.filter((e) => e.how === 'static').map((e) => e.spec);
  /** Everything it reaches, however: static, required, imported or typed. */
  const reaches = edges.map((e) => e.spec);
  return { rel, area: areaOf(rel), text, imports, reaches, internal: internalEdges(rel, edges) };
});

/**
 * Which areas each area may reach (besides itself), by any edge `edgesOf` sees: a static import or export, a type-only
 * one, a require (a lazy one too) or a `typeof import()`.
 */
const ALLOWED: Record<string, string[]> = {
  constants: [],
  // The one loader of optional and ESM-only peers, and what a Workers runtime allows at import (nothing at module scope).
  runtime: ['errors'],
  errors: [],
  interfaces: ['constants', 'context'],
  metadata: ['constants', 'interfaces'],
  decorators: ['metadata', 'interfaces', 'errors', 'constants'],
  di: ['metadata', 'interfaces', 'errors', 'constants'],
  schema: ['metadata', 'interfaces', 'errors'],
  validation: ['interfaces'],
  context: ['state', 'errors'],
  // ctx.state: the caller's values and the stores they live in.
  state: ['errors'],
  // catalogue: the RFC 6570 variables of a provider's template (lib/catalogue/uri-template.ts).
  invocation: ['catalogue', 'context', 'schema', 'validation', 'metadata', 'interfaces', 'errors'],
  catalogue: ['errors'],
  pipeline: ['catalogue', 'invocation', 'context', 'validation', 'decorators', 'metadata', 'interfaces', 'errors'],
  content: [],
  apps: ['metadata', 'interfaces', 'errors', 'constants'],
  builtins: ['runtime', 'decorators', 'metadata', 'interfaces', 'errors'],
  tasks: ['catalogue', 'interfaces', 'errors'],
  tools: ['apps', 'tasks', 'content', 'pipeline', 'catalogue', 'invocation', 'context', 'schema', 'validation', 'interfaces', 'errors', 'constants'],
  resources: ['apps', 'pipeline', 'catalogue', 'invocation', 'context', 'validation', 'interfaces', 'errors'],
  prompts: ['content', 'pipeline', 'catalogue', 'invocation', 'context', 'validation', 'interfaces', 'errors'],
  completions: ['pipeline', 'validation', 'invocation', 'context', 'metadata', 'interfaces', 'errors'],
  // The SDK server adapter (with the tasks methods on the wire in server/tasks/): the registries behind SDK handlers.
  server: ['runtime', 'apps', 'state', 'tasks', 'pipeline', 'tools', 'resources', 'prompts', 'completions', 'invocation', 'context', 'interfaces', 'errors'],
  // The resource server: access-token verification and the HTTP bearer gate (RFC 6750, RFC 9728), on the server's types.
  auth: ['runtime', 'server', 'context', 'interfaces', 'errors'],
  // stdio, in-memory connections and Streamable HTTP: they serve what the server factory makes.
  transports: ['auth', 'server', 'context', 'interfaces', 'errors'],
  // Redis adapters of the stores and the bus the server and transports define.
  'scale-out': ['runtime', 'transports', 'server', 'state', 'tasks', 'errors'],
  // A remote MCP server as a provider (McpProvider): the SDK client, and its catalogue as provided components.
  // (schema: a remote tool's schema must be one that can be sent without $ref.)
  proxy: ['resources', 'content', 'schema', 'catalogue', 'context', 'interfaces', 'errors'],
  // An HTTP API described by OpenAPI as a provider (McpProvider): its operations as provided components, calling it with fetch.
  // (schema: the rule for patterns from others, shared with proxy: schema/safe-pattern.ts.)
  openapi: ['runtime', 'content', 'catalogue', 'context', 'schema', 'interfaces', 'errors'],
  // The composition root: an application on a host (host/), the standalone container's host (host/native/).
  // (proxy, openapi, auth: lib/host/optional-parts.ts requires them lazily, when an application asks for a proxy, an
  // OpenAPI document or bearer auth; auth is reached only that way, and a lazy arrow is an arrow all the same.)
  host: [
    'openapi', 'proxy', 'apps', 'state', 'tasks', 'auth', 'server', 'transports', 'pipeline', 'tools', 'resources', 'prompts', 'completions', 'catalogue', 'invocation', 'di',
    'context', 'validation', 'decorators', 'metadata', 'interfaces', 'errors', 'constants',
  ],
  // mcp-reflect/nest: the NestJS host (the only importer of @nestjs/* and rxjs).
  nest: ['host', 'openapi', 'proxy', 'server', 'transports', 'pipeline', 'invocation', 'context', 'metadata', 'interfaces', 'errors', 'constants'],
  testing: ['host', 'context', 'interfaces'],
  generator: ['runtime', 'metadata', 'interfaces'],
  // validation: `mcp-reflect validators` writes validators under the key the application looks them up by.
  // nest: a Nest root module is booted by mcp-reflect/nest (lib/nest/cli-application.ts), required lazily, only for
  // such an entry (lib/cli/application.ts), so that the CLI never loads @nestjs/* for a standalone application.
  cli: ['nest', 'generator', 'host', 'testing', 'validation', 'metadata', 'errors', 'constants'],
  // The subpath entries (mcp-reflect/common, /redis, /tasks, /builtins, /auth-server, /state, /inspection): each names
  // the areas it re-exports (common: the results of content, resources and prompts, which load no SDK).
  entries: ['decorators', 'errors', 'constants', 'context', 'interfaces', 'content', 'resources', 'prompts', 'scale-out', 'tasks', 'builtins', 'auth', 'state', 'host'],
  index: [
    'openapi', 'proxy', 'state', 'tasks', 'builtins', 'pipeline', 'decorators', 'di', 'context', 'host', 'server', 'transports', 'scale-out', 'tools', 'resources', 'prompts',
    'completions', 'errors', 'constants', 'interfaces',
  ],
};

/** The statements of a file (parsed once, shared by every rule below). */
const statements = (s: { text: string }): Node[] => parse(s.text);

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

/**
 * Node's private module hooks that a file names: `Module._load`, `_resolveFilename`, `_extensions`, `_compile`, … (as a
 * member, a computed member, a destructured key or a type's key) and `require.extensions` / `require.cache`. A loader
 * reaches Node through its public API (`createRequire`, `module.registerHooks()`) or a maintained library (pirates).
 */
const PRIVATE_MODULE_HOOKS = new Set(['_load', '_resolveFilename', '_extensions', '_compile', '_findPath', '_nodeModulePaths', '_resolveLookupPaths', '_pathCache', '_cache', '_initPaths']);
function privateModuleHooks(text: string): string[] {
  const found: string[] = [];
  const name = (n: unknown) => (n as { value?: unknown } | undefined)?.value;
  walk(parse(text), (n) => {
    if (n.type === 'MemberExpression') {
      const property = n.property as Node & { expression?: unknown };
      const key = property.type === 'Computed' ? literalOf(property.expression) : property.type === 'Identifier' ? String(name(property)) : undefined;
      if (key === undefined) return;
      const object = (n.object as Node).type === 'Identifier' ? String(name(n.object)) : '…';
      if (PRIVATE_MODULE_HOOKS.has(key)) found.push(property.type === 'Computed' ? `${object}['${key}']` : `${object}.${key}`);
      else if (object === 'require' && (key === 'extensions' || key === 'cache')) found.push(`require.${key}`);
    } else if (n.type === 'KeyValuePatternProperty' || n.type === 'AssignmentPatternProperty' || n.type === 'TsPropertySignature' || n.type === 'TsMethodSignature') {
      const key = String(name(n.key) ?? '');
      if (PRIVATE_MODULE_HOOKS.has(key)) found.push(`{ ${key} }`);
    }
  });
  return found;
}

/** The arrows of a file at `rel` (in lib/) that ALLOWED does not draw, each with how it is drawn. */
function wrongArrows(rel: string, text: string): string[] {
  const area = areaOf(rel);
  return internalEdges(rel, edgesOf(text))
    .filter(({ area: target }) => target !== area && !(ALLOWED[area] ?? []).includes(target))
    .map(({ area: target, edge }) => `${rel} -> ${target} (${edge.how} '${edge.spec}')`);
}

/** The wildcard re-exports of a file: `export *`, `export type *` and `export * as ns` (a barrel names what it offers). */
function wildcardExports(text: string): string[] {
  return parse(text)
    .filter((n) => n.type === 'ExportAllDeclaration' || (n.type === 'ExportNamedDeclaration' && (n.specifiers as Node[]).some((spec) => spec.type === 'ExportNamespaceSpecifier')))
    .map((n) => `export ${n.typeOnly ? 'type ' : ''}* from '${(n.source as { value: string }).value}'`);
}

describe('architecture', () => {
  it('knows every area of lib/', () => {
    expect([...new Set(sources.map((s) => s.area))].sort()).toEqual(Object.keys(ALLOWED).sort());
  });

  it.each(Object.keys(ALLOWED))('keeps the dependencies of %s pointing one way', (area) => {
    const wrong = sources.filter((s) => s.area === area).flatMap((s) => wrongArrows(s.rel, s.text));
    expect(wrong).toEqual([]);
  });

  it('allows no arrow that no file draws (the table is the house as it is, not as it once was)', () => {
    const drawn = new Set(sources.flatMap((s) => s.internal.filter(({ area }) => area !== s.area).map(({ area }) => `${s.area} -> ${area}`)));
    const stale = Object.entries(ALLOWED).flatMap(([area, targets]) => targets.map((target) => `${area} -> ${target}`)).filter((arrow) => !drawn.has(arrow));
    expect(stale).toEqual([]);
  });

  it('sees every kind of edge: a lazy require, import type, export type *, import() and typeof import() of a forbidden area', () => {
    // The rule itself, fed a file of lib/errors (which may import nothing of ours) that reaches lib/nest every way.
    const text = [
      "import type { A } from '../nest/a';",
      "export type * from '../nest/b';",
      "import c = require('../nest/c');",
      "export function later() { return (require('../nest/d') as typeof import('../nest/e')).run(); }",
      "export type F = import('../nest/f').F;",
      "// require('../nest/comment') in a comment is no edge, nor is a string: 'require(\\'../nest/string\\')'",
      "import { G } from './g';",
      "const pkg = require('../../package.json');",
    ].join('\n');
    expect(wrongArrows('errors/synthetic.ts', text)).toEqual([
      "errors/synthetic.ts -> nest (static '../nest/a')",
      "errors/synthetic.ts -> nest (static '../nest/b')",
      "errors/synthetic.ts -> nest (require '../nest/c')",
      "errors/synthetic.ts -> nest (require '../nest/d')",
      "errors/synthetic.ts -> nest (type '../nest/e')",
      "errors/synthetic.ts -> nest (type '../nest/f')",
    ]);
    expect(wildcardExports(text)).toEqual(["export type * from '../nest/b'"]);
    expect(wrongArrows('errors/synthetic.ts', "export const f = () => import('../nest/lazy');")).toEqual(["errors/synthetic.ts -> nest (import() '../nest/lazy')"]);
  });

  it('imports the MCP SDK only from the server adapter, the transports, scale-out, auth, the client of a proxy and lib/testing', () => {
    const sdk = ['server', 'transports', 'scale-out', 'auth', 'proxy', 'testing'];
    const wrong = sources
      .filter((s) => s.reaches.some((i) => i.startsWith('@modelcontextprotocol/')))
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

  it('re-exports by name, never with export * nor export type * (a barrel shows what a folder offers)', () => {
    expect(sources.flatMap((s) => wildcardExports(s.text).map((what) => `${s.rel}: ${what}`))).toEqual([]);
  });

  it('imports @nestjs/* and rxjs only from lib/nest (the core never loads them)', () => {
    const wrong = sources.filter((s) => s.reaches.some((i) => i.startsWith('@nestjs/') || i === 'rxjs' || i.startsWith('rxjs/')) && s.area !== 'nest').map((s) => s.rel);
    expect(wrong).toEqual([]);
  });

  it("names no private or protected member of the Nest objects lib/nest is handed, in Nest 11 or 12 (their .d.ts): Nest's public API only (issue 41, item 5)", () => {
    const declarations = ['helpers/external-context-creator.d.ts', 'application-config.d.ts', 'injector/module-ref.d.ts', 'discovery/discovery-service.d.ts', 'injector/module.d.ts'];
    const cores = ['node_modules/@nestjs/core', 'tools/nest12/node_modules/@nestjs/core'].map((dir) => path.resolve(__dirname, '..', dir));
    const hidden = new Set<string>();
    for (const core of cores) {
      for (const declaration of declarations) {
        const file = path.join(core, declaration);
        let text: string;
        try {
          text = readFileSync(file, 'utf8');
        } catch {
          continue; // tools/nest12 not installed
        }
        for (const m of text.matchAll(/^\s+(?:private|protected)\s+(?:static\s+)?(?:readonly\s+)?(?:(?:get|set)\s+)?(\w+)/gm)) hidden.add(m[1]);
      }
    }
    expect([...hidden]).toEqual(expect.arrayContaining(['guardsContextCreator', 'guardsConsumer', 'interceptorsConsumer', 'filtersContextCreator', 'globalGuards', 'container']));
    const names = (text: string) => [...hidden].filter((name) => new RegExp(`\\.\\s*${name}\\b|['"\`]${name}['"\`]`).test(text));
    expect(names("const inner = creator as unknown as Record<string, unknown>; inner['guardsContextCreator'];")).toEqual(['guardsContextCreator']);
    expect(sources.filter((s) => s.area === 'nest').flatMap((s) => names(s.text).map((name) => `${s.rel}: ${name}`))).toEqual([]);
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

  it("uses no private hook of Node's module system to load modules (require.extensions, require.cache, Module._load, Module._resolveFilename, …)", () => {
    const wrong = sources.flatMap((s) => privateModuleHooks(s.text).map((what) => `${s.rel}: ${what}`));
    expect(wrong).toEqual([]);
  });

  it("has the benchmarks use no private hook of Node's module system either (a baseline revision resolves by folder, bench/src/baseline.ts)", () => {
    const bench = path.resolve(__dirname, '..', 'bench', 'src');
    const wrong = files(bench).flatMap((file) => privateModuleHooks(readFileSync(file, 'utf8')).map((what) => `bench/src/${path.relative(bench, file)}: ${what}`));
    expect(wrong).toEqual([]);
  });

  it("has the specs and their loader use no private hook of Node's module system either (spec/support/register.js compiles through pirates, points imports of mcp-reflect at lib/ through swc's paths)", () => {
    const spec = __dirname;
    const scripts = (name: string) => /\.(ts|js|cjs|mjs)$/.test(name) && !name.endsWith('.d.ts');
    // Reading require.cache (which modules a process loaded) is how lazy-loading specs observe; it hooks nothing.
    const wrong = files(spec, scripts).flatMap((file) =>
      privateModuleHooks(readFileSync(file, 'utf8'))
        .filter((what) => what !== 'require.cache')
        .map((what) => `spec/${path.relative(spec, file)}: ${what}`),
    );
    expect(wrong).toEqual([]);
  });

  it("sees a private module hook however it is named (member, computed member, destructuring, a type's key), and not the public module API", () => {
    // The rule itself, fed the loader the CLI had before pirates and module.registerHooks(), and lib/runtime/peer.ts's public calls.
    const text = [
      "const Module = require('node:module');",
      'const resolve = Module._resolveFilename;',
      "Module['_load'] = () => undefined;",
      'const { _extensions } = Module;',
      "require.extensions['.ts'] = compile;",
      'delete require.cache[file];',
      'type Compiled = NodeJS.Module & { _compile(code: string, filename: string): void };',
      "// Module._load in a comment is no hook, nor is a string: 'require.extensions'",
      "const { createRequire } = require('node:module') as typeof import('node:module');",
      "createRequire(here())('x'); host.getBuiltinModule('node:module'); const extensions = ['.ts']; options.extensions;",
    ].join('\n');
    expect(privateModuleHooks(text)).toEqual(['Module._resolveFilename', "Module['_load']", '{ _extensions }', 'require.extensions', 'require.cache', '{ _compile }']);
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
