import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Child processes see neither this jest worker nor the npm script running it (as in package.spec.ts). */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !/^(JEST_|npm_package_|npm_lifecycle_)/.test(key) && !['npm_config_local_prefix', 'npm_command', 'NODE_OPTIONS'].includes(key),
  ),
) as Record<string, string>;

const node = (args: string[], cwd: string) => execFileSync(process.execPath, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });

/** The entries of package.json's `exports` (`mcp-reflect`, `mcp-reflect/testing`, …). */
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown>; bin: Record<string, string> };
const entries = Object.keys(manifest.exports)
  .filter((subpath) => subpath !== './package.json')
  .map((subpath) => (subpath === '.' ? 'mcp-reflect' : `mcp-reflect${subpath.slice(1)}`));

/**
 * Every entry's names as an ES module imports them (Node's CommonJS lexer reading the shim tools/bundle.js wrote)
 * against what require() gives: the same names, the same values.
 */
const namesProbe = (names: string[]) => `import { createRequire } from 'node:module';
const require = createRequire(process.cwd() + '/');
const out = {};
for (const entry of ${JSON.stringify(names)}) {
  const esm = await import(entry);
  const cjs = require(entry);
  // 'module.exports': the whole exports object, which Node 23+ adds to a CommonJS module's namespace.
  const imported = Object.keys(esm).filter((name) => name !== 'default' && name !== '__esModule' && name !== 'module.exports').sort();
  out[entry] = { imported, required: Object.keys(cjs).sort(), same: imported.every((name) => esm[name] === cjs[name]) };
}
console.log(JSON.stringify(out));
`;

/** One class per concept: the names two entries share are the same values, and objects made by one are instances of the other's. */
const identityProbe = (names: string[]) => `require('reflect-metadata');
const loaded = Object.fromEntries(${JSON.stringify(names)}.map((entry) => [entry, require(entry)]));
const differing = [];
for (const [a, ea] of Object.entries(loaded)) for (const [b, eb] of Object.entries(loaded)) {
  if (a < b) for (const name of Object.keys(ea)) if (name in eb && ea[name] !== eb[name]) differing.push(a + ' and ' + b + ': ' + name);
}
const root = loaded['mcp-reflect'];
const { Tool, Param, Injectable, ToolError } = require('mcp-reflect/common');
const { createTestClient } = require('mcp-reflect/testing');
class Tools { add(a, b) { return a + b; } fail() { throw new ToolError('no'); } }
Reflect.decorate([Tool({ description: 'Add' }), Reflect.metadata('design:paramtypes', [Number, Number])], Tools.prototype, 'add', null);
Param()(Tools.prototype, 'add', 0); Param()(Tools.prototype, 'add', 1);
Reflect.decorate([Tool()], Tools.prototype, 'fail', null);
Reflect.decorate([Injectable()], Tools);
class AppModule {}
Reflect.decorate([root.Module({ imports: [root.McpModule.forRoot({ name: 'bundle', version: '1.0.0' })], providers: [Tools] })], AppModule);
(async () => {
  const client = await createTestClient(AppModule);
  const tools = (await client.listTools()).tools.map((tool) => tool.name);
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  const result = {
    differing,
    tools,
    sum: sum.content[0].text,
    application: client.app instanceof root.McpApplication,
    taskStore: new (require('mcp-reflect/tasks').InMemoryTaskStore)() instanceof root.InMemoryTaskStore,
    stateStore: new (require('mcp-reflect/state').InMemoryStateStore)() instanceof root.InMemoryStateStore,
    toolError: new ToolError('x') instanceof root.ToolError,
  };
  await client.close();
  console.log(JSON.stringify(result));
})().catch((error) => { console.error(error); process.exit(1); });
`;

/** What requiring `entry` loads of the optional peers and lazily loaded parts (the consumer has them installed). */
const lazyProbe = (entry: string) => `require('${entry}');
const peers = ['class-validator', 'class-transformer', 'zod', 'ajv', 'jose', 'ioredis', '@nestjs', 'oidc-provider', '@modelcontextprotocol/client', 'hono', 'express'];
console.log(JSON.stringify(peers.filter((name) => Object.keys(require.cache).some((file) => file.includes('node_modules/' + name + '/')))));
`;

/** A bootstrap error thrown inside the library, its stack read with --enable-source-maps. */
const stackProbe = `const { McpFactory } = require('mcp-reflect');
class NotAModule {}
McpFactory.create(NotAModule).then(() => process.exit(1), (error) => console.log(JSON.stringify(error.stack.split('\\n').filter((line) => line.trim().startsWith('at ')).slice(0, 2))));
`;

/**
 * The package's entries are one bundle of tsc's output (tools/bundle.js, docs/architecture.md "Entry points"): the
 * packed tarball installed in an empty project, its entries required and imported.
 */
describe('the bundled package', () => {
  let dir: string;
  let app: string;
  let files: string[];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-bundle-'));
    // dist/ is the build of the global set-up: packing must not build it again (package.spec.ts says why).
    execFileSync(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--silent'], { cwd: root, env: childEnv });
    const tarball = path.join(dir, readdirSync(dir).find((f) => f.endsWith('.tgz'))!);
    files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n').map((f) => f.replace(/^package\//, ''));
    app = path.join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'bundle-consumer', private: true }));
    const packages = ['reflect-metadata@0.2.2', 'class-validator@0.15.1', 'class-transformer@0.5.1', 'zod@4.6.7'];
    await promisify(execFile)(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...packages], { cwd: app, env: childEnv });
  }, 180_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('ships the bundles (the entries, the SDK-free entries, Nest, the CLI) with their source maps, a small shim per entry and bin, and the declarations: no other JavaScript', () => {
    const scripts = files.filter((f) => f.startsWith('dist/') && !f.endsWith('.d.ts')).sort();
    const shims = Object.values(manifest.exports)
      .flatMap((target) => (typeof target === 'object' && target !== null ? [(target as { default: string }).default.slice(2)] : []))
      .concat(Object.values(manifest.bin), ['dist/dev-runner.js']);
    const parts = ['dist/mcp-reflect.js', 'dist/mcp-reflect-base.js', 'dist/mcp-reflect-nest.js', 'dist/mcp-reflect-cli.js'].flatMap((part) => [part, `${part}.map`]);
    expect(scripts).toEqual([...new Set([...shims, ...parts])].sort());
    // A shim has no code of its own: comments, the require() of the bundle and its names.
    const statement = /^(#!.*|\/\/.*|"use strict";|Object\.defineProperty\(exports, "\w+", \{ (value: true|enumerable: true, get: function \(\) \{ return m\.\w+; \}) \}\);|(const (m|cli) = )?require\("(\.\.?\/)+mcp-reflect(-base|-nest|-cli)?\.js"\)\.module\("[\w/.-]+"\);|module\.exports = cli;|if \(require\.main === module\) void cli\.main\(\);|)$/;
    const code = shims.flatMap((shim) => readFileSync(path.join(app, 'node_modules', 'mcp-reflect', shim), 'utf8').split('\n').filter((line) => !statement.test(line)).map((line) => `${shim}: ${line}`));
    expect(code).toEqual([]);
  });

  it("gives every entry's names to ES modules as require() gives them", () => {
    // mcp-reflect/nest needs @nestjs/*, which the consumer has not: that entry is read in this repository (self-reference).
    const consumer = JSON.parse(node(['--input-type=module', '-e', namesProbe(entries.filter((e) => e !== 'mcp-reflect/nest'))], app).trim());
    const nest = JSON.parse(node(['--input-type=module', '-e', namesProbe(['mcp-reflect/nest'])], root).trim());
    for (const [entry, { imported, required, same }] of Object.entries({ ...consumer, ...nest }) as [string, { imported: string[]; required: string[]; same: boolean }][]) {
      expect({ entry, imported, same }).toEqual({ entry, imported: required, same: true });
    }
    expect(consumer['mcp-reflect'].imported).toEqual(expect.arrayContaining(['McpFactory', 'Tool', 'McpApplication']));
    expect(nest['mcp-reflect/nest'].imported.length).toBeGreaterThan(0);
  });

  it('has one class per concept across entries: shared names are the same values, instanceof holds, decorators of /common serve the root', () => {
    const result = JSON.parse(node(['-e', identityProbe(entries.filter((e) => e !== 'mcp-reflect/nest'))], app).trim());
    expect(result).toEqual({ differing: [], tools: ['add', 'fail'], sum: '5', application: true, taskStore: true, stateStore: true, toolError: true });
  });

  it('can be bundled (esbuild, as wrangler does) without Nest installed: mcp-reflect/nest and the CLI are files of their own', () => {
    writeFileSync(path.join(app, 'worker.js'), "const { McpFactory } = require('mcp-reflect');\nconsole.log(typeof McpFactory.create);\n");
    const esbuild = path.join(root, 'node_modules', '.bin', 'esbuild');
    execFileSync(esbuild, ['worker.js', '--bundle', '--platform=node', '--format=cjs', '--outfile=worker.bundle.js', '--log-level=error'], { cwd: app, env: childEnv });
    const bundled = readFileSync(path.join(app, 'worker.bundle.js'), 'utf8');
    expect(bundled).not.toMatch(/require\("@nestjs\/|mcp-reflect-(nest|cli)\.js/);
    expect(node(['worker.bundle.js'], app).trim()).toBe('function');
  });

  it('loads no optional peer and no lazily loaded part when the root entry is imported', () => {
    // The SDK loads zod itself: what the root entry loads is what the SDK's server package alone loads.
    const sdk = JSON.parse(node(['-e', lazyProbe('@modelcontextprotocol/server')], app).trim());
    expect(sdk).toEqual(['zod']);
    expect(JSON.parse(node(['-e', lazyProbe('mcp-reflect')], app).trim())).toEqual(sdk);
    // An SDK-free entry alone reads the part of the modules it reaches, not the whole package.
    const files = "console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('node_modules/mcp-reflect/')).map((f) => f.split('node_modules/mcp-reflect/')[1]).sort()))";
    expect(JSON.parse(node(['-e', `require('mcp-reflect/common'); ${files}`], app).trim())).toEqual(['dist/entries/common.js', 'dist/mcp-reflect-base.js']);
    expect(JSON.parse(node(['-e', `require('mcp-reflect/auth-server'); ${files}`], app).trim())).toEqual(['dist/entries/auth-server.js', 'dist/mcp-reflect-base.js']);
  });

  // The consumer installed neither Nest nor OpenTelemetry, as a project that does not use them.
  it('says which packages to install when an optional peer is missing: mcp-reflect/nest without Nest, OpenTelemetryInterceptor without @opentelemetry/api', () => {
    const nest = "try { require('mcp-reflect/nest'); console.log('loaded'); } catch (e) { console.log(JSON.stringify(e.message)); }";
    const nestMissing = JSON.parse(node(['-e', nest], app).trim()) as string;
    expect(nestMissing).toContain('Cannot load mcp-reflect/nest: @nestjs/common, @nestjs/core, rxjs are not installed');
    expect(nestMissing).toContain('Fix: npm install @nestjs/common @nestjs/core rxjs');
    const otel = `const { McpReflectError } = require('mcp-reflect');
const { OpenTelemetryInterceptor } = require('mcp-reflect/builtins');
try { new OpenTelemetryInterceptor(); console.log('"created"'); } catch (e) { console.log(JSON.stringify({ base: e instanceof McpReflectError, name: e.name, code: e.code, message: e.message })); }`;
    expect(JSON.parse(node(['-e', otel], app).trim())).toEqual({
      base: true,
      name: 'McpReflectError',
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message:
        "Cannot create OpenTelemetryInterceptor: the package '@opentelemetry/api' is not installed (it is an optional peer dependency of mcp-reflect).\n" +
        'Fix: npm install @opentelemetry/api, and register a tracer provider (e.g. @opentelemetry/sdk-node) to export the spans.',
    });
  });

  it("maps a stack trace through the bundle's source map to lib/*.ts", () => {
    const frames = JSON.parse(node(['--enable-source-maps', '-e', stackProbe], app).trim()) as string[];
    expect(frames[0]).toMatch(/node_modules\/mcp-reflect\/lib\/di\/[\w-]+\.ts:\d+:\d+\)$/);
  });
});
