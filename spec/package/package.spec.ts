import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { authSpec } from './consumer-auth';

const root = path.resolve(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const repository = 'https://github.com/mcp-reflect/mcp-reflect';

/**
 * What a consumer installs next to the tarball: its peer dependencies, TypeScript 7 and the jest set-up of
 * docs/testing.md, at the versions this repository uses (so `--prefer-offline` finds them in the npm cache).
 */
const consumerPackages = [
  'reflect-metadata@0.2.2',
  'class-validator@0.15.1',
  'class-transformer@0.5.1',
  'typescript@7.0.2',
  '@types/node@20.19.43',
  'jest@30.5.2',
  '@jest/globals@30.5.2',
  '@swc/core@1.16.22',
  '@swc/jest@0.2.39',
  'zod@4.6.7',
];

/**
 * Child processes see neither this jest worker nor the npm script running it (npm's `local_prefix` would point a
 * nested `npm install` at this repository); the npm configuration itself (cache, registry) is kept.
 */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) =>
      !/^(JEST_|npm_package_|npm_lifecycle_)/.test(key) && !['npm_config_local_prefix', 'npm_command', 'NODE_OPTIONS'].includes(key),
  ),
) as Record<string, string>;

const run = (cmd: string, args: string[], cwd: string) =>
  execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });

async function runAsync(cmd: string, args: string[], cwd: string): Promise<string> {
  try {
    const { stdout } = await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', env: childEnv, maxBuffer: 16 * 1024 * 1024 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

/** A file a doc page gives in full: the code block right after `<!-- file: path -->` or `<!-- file: path (Kind) -->`. */
interface DocFile {
  path: string;
  kind?: string;
  content: string;
}

function docFiles(page: string): DocFile[] {
  const markdown = readFileSync(path.join(root, 'docs', page), 'utf8');
  return [...markdown.matchAll(/<!-- file: (\S+)(?: \(([^)]+)\))? -->\n```\w*\n([\s\S]*?)\n```/g)].map(([, file, kind, content]) => ({
    path: file!,
    kind,
    content: `${content}\n`,
  }));
}

/** Relative links (inline and reference-style) of a markdown file, code blocks and spans left out. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/^```[\s\S]*?^```/gm, '').replace(/`[^`\n]*`/g, '');
  const targets = [
    ...[...prose.matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)].map((m) => m[1]!),
    ...[...prose.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
  ];
  return targets.filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#'));
}

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

/** Beyond the docs: the typed surface of both entry points and an @Args() DTO, compiled with the documented files. */
const surfaceSource = `import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Args, Injectable, McpModule, Module, Param, Tool, type McpApplication, type ShutdownSignal } from 'mcp-reflect';
import { z } from 'zod';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { Param as SharedParam, Tool as SharedTool, type ToolOptions } from 'mcp-reflect/common';
import { InMemoryTaskStore, type TaskStore } from 'mcp-reflect/tasks';
import { RedisTaskStore } from 'mcp-reflect/redis';
import { TimingInterceptor } from 'mcp-reflect/builtins';
import { githubUpstream, MemoryAuthStore, type AuthorizationServerOptions } from 'mcp-reflect/auth-server';
import { InMemoryStateStore, type StateStore } from 'mcp-reflect/state';
import type { McpInspection } from 'mcp-reflect/inspection';
import * as entry from 'mcp-reflect';

class Query { @IsInt() @Min(1) n!: number; }

const described: ToolOptions = { description: 'Add' };

@Injectable()
class Tools {
  // Decorated through mcp-reflect/common, served by the application of the main entry: one copy of the metadata.
  @SharedTool(described) add(@SharedParam() a: number, @Param() b: number): number { return a + b; }
  @Tool() twice(@Args() q: Query): number { return q instanceof Query ? q.n * 2 : -1; }
  // A Standard Schema source (issue 42): zod's schema, zod's validation, in either module system.
  @Tool({ parameters: z.object({ n: z.number().int().default(8) }) }) half({ n }: { n: number }): number { return n / 2; }
}

const store: TaskStore = new InMemoryTaskStore();
const states: StateStore = new InMemoryStateStore();
// The names that moved out of the root in 0.2.0 are still there (deprecated aliases): the same classes.
const single = store instanceof entry.InMemoryTaskStore && RedisTaskStore === entry.RedisTaskStore && TimingInterceptor === entry.TimingInterceptor && states instanceof entry.InMemoryStateStore;
// mcp-reflect/auth-server types auth.server of the main entry's listen(), and loads no oidc-provider by itself.
const signIn: AuthorizationServerOptions = { upstream: githubUpstream({ clientId: 'id', clientSecret: 'secret' }), store: new MemoryAuthStore() };
const authServer = signIn.upstream.issuer === 'https://github.com/login/oauth' && (typeof require === 'undefined' || !Object.keys(require.cache).some((file) => file.includes('oidc-provider')));

@Module({ imports: [McpModule.forRoot({ name: 'consumer', version: '1.0.0', state: { store: states } })], providers: [Tools] })
class AppModule {}

async function main() {
  const client: TestClient = await createTestClient(AppModule);
  const app: McpApplication = client.app;
  const signals: ShutdownSignal[] = ['SIGTERM'];
  app.enableShutdownHooks(signals);
  const inspection: McpInspection = app.inspect();
  const tools = (await client.listTools()).tools.map((t) => t.name).join(',');
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  const twice = await client.callTool({ name: 'twice', arguments: { n: 21 } });
  const half = await client.callTool({ name: 'half', arguments: {} });
  console.log(JSON.stringify({ tools, sum: sum.content, twice: twice.content, half: half.content, size: app.tools.names().length, inspected: inspection.tools.length, single, authServer }));
  await client.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
`;

/** The README's first example: its first `ts` block (ES modules import the generated file with its `.js`). */
function readmeExample(kind: string): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const source = /```ts\n([\s\S]*?)\n```/.exec(readme)![1]!;
  return `${kind === 'ESM' ? source.replace("from './mcp-metadata';", "from './mcp-metadata.js';") : source}\n`;
}

/** Plain JavaScript importing both entry points, as ESM and as CommonJS. */
const plainSources = {
  'plain.mjs': `import { McpFactory, Tool } from 'mcp-reflect';\nimport { createTestClient } from 'mcp-reflect/testing';\n`,
  'plain.cjs': `const { McpFactory, Tool } = require('mcp-reflect');\nconst { createTestClient } = require('mcp-reflect/testing');\n`,
};

/** Requires mcp-reflect/common alone and prints what it loaded of the SDK (nothing) and what it exports. */
const commonProbe = `const common = require('mcp-reflect/common');
const sdk = Object.keys(require.cache).filter((file) => file.includes('@modelcontextprotocol'));
console.log(JSON.stringify({ sdk, decorators: [typeof common.Tool, typeof common.Param, typeof common.Injectable, typeof common.ToolError] }));
`;

/**
 * Writes a consumer project of `kind` into `app` from the files docs/setup.md and docs/testing.md give (and
 * the checks above), then installs the tarball and the consumer packages into it.
 */
async function makeConsumer(kind: string, app: string, tarball: string): Promise<void> {
  const documented = [...docFiles('setup.md'), ...docFiles('testing.md')].filter((file) => file.kind === undefined || file.kind === kind);
  const names = documented.map((file) => file.path).sort().join(', ');
  const expected = '.swcrc, jest.config.js, package.json, src/app.module.ts, src/converter.spec.ts, src/converter.tools.ts, src/main.ts, tsconfig.json';
  if (names !== expected) throw new Error(`docs/setup.md and docs/testing.md give for ${kind}: ${names}; expected: ${expected}`);
  for (const file of documented) {
    mkdirSync(path.dirname(path.join(app, file.path)), { recursive: true });
    writeFileSync(path.join(app, file.path), file.content);
  }
  writeFileSync(path.join(app, 'src', 'surface.ts'), surfaceSource);
  writeFileSync(path.join(app, 'src', 'auth.spec.ts'), authSpec);
  for (const [file, source] of Object.entries(plainSources)) {
    writeFileSync(path.join(app, file), `${source}console.log(typeof McpFactory.create, typeof Tool, typeof createTestClient);\n`);
  }
  // A package of shared tools depends on mcp-reflect/common alone: it loads no MCP SDK.
  writeFileSync(path.join(app, 'common.cjs'), commonProbe);
  await runAsync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', tarball, ...consumerPackages], app);
  // The README's example imports the types the packed `mcp-reflect generate` writes (docs/types.md).
  writeFileSync(path.join(app, 'src', 'readme.ts'), readmeExample(kind));
  await runAsync(path.join(app, 'node_modules', '.bin', 'mcp-reflect'), ['generate', '--out', 'src/mcp-metadata.ts', '--quiet'], app);
}

/** The steps of one consumer project, started at once and awaited by the tests (a failure waits for its test). */
interface ConsumerSteps {
  readonly app: string;
  /** `npm run build` (the documented `tsc`) done. */
  readonly built: Promise<void>;
  /** `tsc --noEmit --skipLibCheck false`: the published types (and the SDK's) checked, not skipped. */
  readonly libChecked: Promise<void>;
  /** The JSON report of the project's own `npm test` (`tsc --noEmit && jest`). */
  readonly tested: Promise<{ numPassedTests: number; numFailedTests: number; numTotalTestSuites: number }>;
}

function startConsumer(kind: string, app: string, tarball: string): ConsumerSteps {
  const handled = <T>(promise: Promise<T>) => {
    promise.catch(() => undefined);
    return promise;
  };
  const made = handled(makeConsumer(kind, app, tarball));
  const built = handled(made.then(() => runAsync(npm, ['run', 'build', '--silent'], app)).then(() => undefined));
  const libChecked = handled(
    made.then(() => runAsync(path.join(app, 'node_modules', '.bin', 'tsc'), ['-p', '.', '--noEmit', '--skipLibCheck', 'false'], app)).then(() => undefined),
  );
  const tested = handled(
    made.then(async () => {
      const output = await runAsync(npm, ['test', '--silent', '--', '--ci', '--json'], app);
      return JSON.parse(output.slice(output.indexOf('{')));
    }),
  );
  return { app, built, libChecked, tested };
}

/**
 * The package as a user gets it: `npm pack`, then the tarball's contents, and consumer projects made from
 * docs/setup.md and docs/testing.md in empty folders, compiled by TypeScript 7, run as a server over stdio
 * and tested with the documented jest set-up.
 */
describe('the packed tarball', () => {
  let dir: string;
  let tarball: string;
  let unpacked: string;
  let files: string[];
  const consumers = new Map<string, ConsumerSteps>();

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-pack-'));
    // dist/ is the build of the global set-up (npm run build, as prepack would run it): packing must not build
    // it again while other specs read it (the Nest 11 projects of nest-versions load the library from dist/,
    // and a file tsc is rewriting reads as half a module).
    run(npm, ['pack', '--ignore-scripts', '--pack-destination', dir, '--silent'], root);
    const name = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(name).toMatch(/^mcp-reflect-\d+\.\d+\.\d+\.tgz$/);
    tarball = path.join(dir, name!);
    run('tar', ['-xzf', tarball, '-C', dir], dir);
    unpacked = path.join(dir, 'package');
    files = filesUnder(unpacked);
    // Both consumer projects are made, built, checked and tested at once; the tests below wait for their step.
    for (const kind of ['CommonJS', 'ESM']) consumers.set(kind, startConsumer(kind, path.join(dir, kind.toLowerCase()), tarball));
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the licence, the built library, the README and the docs, and no sources or specs', () => {
    expect(files).toEqual(expect.arrayContaining(['LICENSE', 'README.md', 'CHANGELOG.md', 'package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/testing/index.js', 'docs/setup.md', 'docs/testing.md']));
    expect(files.filter((f) => /^(lib|spec|samples|bench|tools)\//.test(f))).toEqual([]);
    const licence = readFileSync(path.join(unpacked, 'LICENSE'), 'utf8');
    expect(licence).toMatch(/^MIT License\n\nCopyright \(c\) 2026 the mcp-reflect authors\n/);
    const manifest = JSON.parse(readFileSync(path.join(unpacked, 'package.json'), 'utf8'));
    expect(manifest).toMatchObject({
      license: 'MIT',
      repository: { type: 'git', url: `git+${repository}.git` },
      homepage: `${repository}#readme`,
      bugs: { url: `${repository}/issues` },
    });
  });

  it('ships source maps that carry their sources (lib/ is not in the package)', () => {
    const maps = files.filter((f) => f.endsWith('.js.map'));
    // The bundles' (tools/bundle.js), chained through tsc's to lib/*.ts.
    expect(maps.sort()).toEqual(['dist/mcp-reflect-base.js.map', 'dist/mcp-reflect-cli.js.map', 'dist/mcp-reflect-nest.js.map', 'dist/mcp-reflect.js.map']);
    const incomplete = maps.filter((file) => {
      const map = JSON.parse(readFileSync(path.join(unpacked, file), 'utf8')) as { sources: string[]; sourcesContent?: (string | null)[] };
      return map.sources.length === 0 || map.sourcesContent?.length !== map.sources.length || map.sourcesContent.some((s) => typeof s !== 'string');
    });
    expect(incomplete).toEqual([]);
    expect(JSON.parse(readFileSync(path.join(unpacked, 'dist/mcp-reflect.js.map'), 'utf8')).sources.filter((s: string) => s.startsWith('../lib/')).length).toBeGreaterThan(150);
    // The other scripts are the entries' shims: no code of their own, only a require() of the bundle.
    const unmapped = files.filter((f) => f.endsWith('.js') && !files.includes(`${f}.map`) && !/require\("(\.\.\/|\.\/)+mcp-reflect(-base|-nest|-cli)?\.js"\)\.module\(/.test(readFileSync(path.join(unpacked, f), 'utf8')));
    expect(unmapped).toEqual([]);
  });

  it('publishes types that need no Node.js namespace and no triple-slash references', () => {
    const declarations = files.filter((f) => f.endsWith('.d.ts'));
    const offending = declarations.filter((file) => /\bNodeJS\.|\/\/\/\s*<reference/.test(readFileSync(path.join(unpacked, file), 'utf8')));
    expect(offending).toEqual([]);
  });

  it('gives in the README the tsconfig of docs/setup.md', () => {
    const [tsconfig] = docFiles('setup.md').filter((file) => file.path === 'tsconfig.json');
    expect(readFileSync(path.join(unpacked, 'README.md'), 'utf8')).toContain(`\`\`\`json\n${tsconfig!.content}\`\`\``);
  });

  it('has README and docs links that resolve inside the package', () => {
    const pages = files.filter((f) => f === 'README.md' || (f.startsWith('docs/') && f.endsWith('.md')));
    expect(pages.length).toBeGreaterThan(10);
    const dead: string[] = [];
    for (const page of pages) {
      for (const link of relativeLinks(readFileSync(path.join(unpacked, page), 'utf8'))) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(page), decodeURIComponent(link.split('#')[0]!)));
        const found = target === '.' || files.includes(target) || files.some((f) => f.startsWith(`${target.replace(/\/$/, '')}/`));
        if (!found || target.startsWith('..')) dead.push(`${page}: ${link}`);
      }
    }
    expect(dead).toEqual([]);
  });

  describe.each([
    { kind: 'CommonJS', emits: /require\("mcp-reflect"\)/ },
    { kind: 'ESM', emits: /^import \{ McpFactory \} from 'mcp-reflect';$/m },
  ])('a $kind consumer project made from docs/setup.md and docs/testing.md (TypeScript 7)', ({ kind, emits }) => {
    const steps = () => consumers.get(kind)!;

    it('compiles with tsc 7 and the documented tsconfig, with no errors, to what Node runs', async () => {
      const { app, built } = steps();
      await built;
      expect(run(path.join(app, 'node_modules', '.bin', 'tsc'), ['--version'], app).trim()).toBe('Version 7.0.2');
      expect(readFileSync(path.join(app, 'dist', 'main.js'), 'utf8')).toMatch(emits);
      const surface = JSON.parse(run(process.execPath, ['dist/surface.js'], app).trim());
      expect(surface).toEqual({ tools: 'add,twice,half', sum: [{ type: 'text', text: '5' }], twice: [{ type: 'text', text: '42' }], half: [{ type: 'text', text: '4' }], size: 3, inspected: 3, single: true, authServer: true });
      for (const script of Object.keys(plainSources)) expect(run(process.execPath, [script], app).trim()).toBe('function function function');
      expect(JSON.parse(run(process.execPath, ['common.cjs'], app).trim())).toEqual({ sdk: [], decorators: ['function', 'function', 'function', 'function'] });
    }, 240_000);

    it('installs the mcp-reflect bin (docs/cli.md): --help, and inspect of the compiled root module', async () => {
      const { app, built } = steps();
      await built;
      const bin = path.join(app, 'node_modules', '.bin', 'mcp-reflect');
      expect(run(bin, ['--help'], app)).toMatch(/^Usage: mcp-reflect <command> \[options\]\n/);
      const listed = JSON.parse(run(bin, ['inspect', 'dist/app.module.js', '--json'], app));
      expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(['convert']);
      expect(run(bin, ['call', 'dist/app.module.js', 'convert', '--args', '{"amount":10,"from":"EUR","to":"USD"}', '--quiet'], app).trim()).toBe('11.7');
      // From another folder, as a host or a script runs it: the entry is a path, the project is the entry's.
      const elsewhere = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-elsewhere-'));
      try {
        const entry = path.join(app, 'dist', 'app.module.js');
        expect(run(bin, ['call', entry, 'convert', '--args', '{"amount":10,"from":"USD","to":"EUR"}', '--quiet'], elsewhere).trim()).toBe('8.5');
      } finally {
        rmSync(elsewhere, { recursive: true, force: true });
      }
    }, 240_000);

    it('type-checks the published declarations too (skipLibCheck off): they need only what setup.md asks for', async () => {
      await steps().libChecked;
    }, 240_000);

    it('serves the compiled entry point over stdio to the SDK client', async () => {
      const { app, built } = steps();
      await built;
      // As a host launches it (docs/cli.md's install): node and the entry's absolute path, from another folder.
      const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(app, 'dist', 'main.js')], cwd: tmpdir(), stderr: 'pipe', env: childEnv });
      const stderr: string[] = [];
      transport.stderr?.on('data', (chunk: Buffer) => void stderr.push(chunk.toString()));
      const client = new Client({ name: 'package-spec', version: '1.0.0' });
      await client.connect(transport);
      try {
        expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['convert']);
        const result = await client.callTool({ name: 'convert', arguments: { amount: 10, from: 'EUR', to: 'USD' } });
        expect(result.content).toEqual([{ type: 'text', text: '11.7' }]);
      } finally {
        await client.close();
      }
      expect(stderr.join('')).toContain('converter MCP server ready on stdio');
    }, 240_000);

    it("runs the README's first example with the types the packed `mcp-reflect generate` wrote", async () => {
      const { app, built } = steps();
      await built;
      const bin = path.join(app, 'node_modules', '.bin', 'mcp-reflect');
      expect(run(bin, ['generate', '--out', 'src/mcp-metadata.ts', '--check'], app)).toMatch(/src\/mcp-metadata\.ts is up to date/);
      const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/readme.js'], cwd: app, stderr: 'pipe', env: childEnv });
      const client = new Client({ name: 'package-spec', version: '1.0.0' });
      await client.connect(transport);
      try {
        const { tools } = await client.listTools();
        const convert = tools.find((tool) => tool.name === 'convert')!;
        expect(convert.description).toBe('Convert a temperature');
        expect(convert.inputSchema).toEqual({
          type: 'object',
          properties: {
            degrees: { type: 'number', description: 'the value to convert' },
            to: { type: 'string', enum: ['fahrenheit', 'kelvin'], description: 'the scale to convert to', default: 'fahrenheit' },
          },
          required: ['degrees'],
          additionalProperties: false,
        });
        expect(tools.find((tool) => tool.name === 'forecast')!.inputSchema).toMatchObject({
          properties: { city: { type: 'string' }, days: { type: 'integer', minimum: 1, maximum: 14 } },
          required: ['city'],
        });
        expect((await client.callTool({ name: 'convert', arguments: { degrees: 100 } })).content).toEqual([{ type: 'text', text: '212' }]);
        expect((await client.callTool({ name: 'convert', arguments: { degrees: 0, to: 'kelvin' } })).content).toEqual([{ type: 'text', text: '273.15' }]);
        const refused = await client.callTool({ name: 'convert', arguments: { degrees: 0, to: 'rankine' } });
        expect(refused.isError).toBe(true);
        const days = await client.callTool({ name: 'forecast', arguments: { city: 'Paris', days: 30 } });
        expect(days.content).toEqual([{ type: 'text', text: 'Invalid arguments for tool forecast: days: must not be greater than 14' }]);
      } finally {
        await client.close();
      }
    }, 240_000);

    it('passes its own npm test: tsc --noEmit, then jest with @swc/jest', async () => {
      const report = await steps().tested;
      expect({ passed: report.numPassedTests, failed: report.numFailedTests, suites: report.numTotalTestSuites }).toEqual({ passed: 5, failed: 0, suites: 2 });
    }, 240_000);
  });
});
