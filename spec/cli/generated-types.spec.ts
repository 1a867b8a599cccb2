import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from '@swc/core';
import { createTestClient } from 'mcp-reflect/testing';
import { AppModule } from '../fixtures/generate-project/src/app.module';
import { metadata } from '../fixtures/generate-project/src/mcp-metadata';

// `mcp-reflect inspect` and `call` load the project's generated types as the server's entry does (issue 23,
// item 5): the module's own McpModule.forRoot({ metadata }), else the mcp-metadata module `mcp-reflect generate`
// wrote next to the entry (its compiled form beside a compiled entry), or the file --metadata names; so they
// show and validate against exactly the schemas the server serves.

const root = path.resolve(__dirname, '..', '..');
const fixture = path.join(root, 'spec', 'fixtures', 'generate-project');
const entry = 'spec/fixtures/generate-project/src/app.module.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

const runners = [
  { name: 'the source (lib/cli/main.ts)', argv: ['-r', './spec/support/register.js', 'lib/cli/main.ts'], sources: true },
  // spec/support/global-setup.js builds dist/ before the specs run.
  { name: 'the build (dist/cli/main.js)', argv: [path.join(root, 'dist', 'cli', 'main.js')], sources: false },
];

function cli(argv: readonly string[], args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...argv, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The `style`-like literal union of the fixture: `greet(name, mode: 'fast' | 'slow', times = 2, loud?)`. */
const modeOf = (tools: { name: string; inputSchema: { properties?: object } }[]) =>
  (tools.find((t) => t.name === 'greet')!.inputSchema.properties as Record<string, unknown>).mode;

/**
 * The fixture project built as `tsc` would (src/*.ts to dist/*.js, CommonJS, with decorator metadata) into a
 * folder beside it, so that `mcp-reflect` still resolves to this repository: to its build (dist/, by the package's
 * self-reference), or, for the CLI run from its sources (`sources`), to lib/ (as spec/support/register.js points the
 * TypeScript it compiles), so that the CLI and the project share one copy of the library; plus a hand-made module for
 * --metadata that reuses the generated one with `mode` narrowed to walk/run, and a module passing the
 * generated types to McpModule.forRoot().
 */
function buildFixture(sources: boolean): string {
  const dir = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-cli-types-'));
  cpSync(path.join(fixture, 'tsconfig.json'), path.join(dir, 'tsconfig.json'));
  cpSync(path.join(fixture, 'src'), path.join(dir, 'src'), { recursive: true });
  writeFileSync(
    path.join(dir, 'src', 'for-root.module.ts'),
    [
      "import { McpModule, Module } from 'mcp-reflect';",
      "import { metadata } from './mcp-metadata';",
      "import { TypedTools } from './tools';",
      '',
      "@Module({ imports: [McpModule.forRoot({ name: 'for-root', version: '1.0.0', metadata })], providers: [TypedTools] })",
      'export class ForRootModule {}',
      '',
    ].join('\n'),
  );
  const swc = JSON.parse(readFileSync(path.join(root, '.swcrc'), 'utf8'));
  if (sources) swc.jsc = { ...swc.jsc, baseUrl: root, paths: { 'mcp-reflect': ['lib/index.ts'] } };
  mkdirSync(path.join(dir, 'dist'));
  for (const file of readdirSync(path.join(dir, 'src'))) {
    const source = path.join(dir, 'src', file);
    const { code } = transformSync(readFileSync(source, 'utf8'), { ...swc, swcrc: false, sourceMaps: false, filename: source });
    writeFileSync(path.join(dir, 'dist', file.replace(/\.ts$/, '.js')), code);
  }
  writeFileSync(
    path.join(dir, 'walk-run.js'),
    [
      "const { metadata } = require('./dist/mcp-metadata.js');",
      'const narrowed = (param) => (param.name === "mode" ? { ...param, schema: { type: "string", enum: ["walk", "run"] } } : param);',
      'const methods = (cls) => ({ ...cls.methods, greet: { ...cls.methods.greet, params: cls.methods.greet.params.map(narrowed) } });',
      'exports.metadata = { ...metadata, classes: metadata.classes.map((cls) => (cls.name === "TypedTools" ? { ...cls, methods: methods(cls) } : cls)) };',
      '',
    ].join('\n'),
  );
  return dir;
}

jest.setTimeout(60_000);

describe.each(runners)('inspect and call with the generated types, run from $name', ({ argv, sources }) => {
  const run = (...args: string[]) => cli(argv, args);
  let built: string;
  let relative: string;
  beforeAll(() => {
    built = buildFixture(sources);
    relative = path.relative(root, built);
  });
  afterAll(() => rmSync(built, { recursive: true, force: true }));

  it('inspect --json of a TypeScript entry is what the server serves with the generated module beside it', async () => {
    const result = await run('inspect', entry, '--json');
    expect(result.code).toBe(0);
    const listed = JSON.parse(result.stdout);
    expect(modeOf(listed.tools)).toEqual({ type: 'string', enum: ['fast', 'slow'], description: 'how fast' });
    const client = await createTestClient(AppModule, { metadata });
    try {
      expect(listed.tools).toEqual((await client.listTools()).tools);
    } finally {
      await client.close();
    }
  });

  it('inspect of a compiled entry finds the compiled generated module, and says where the types came from', async () => {
    const result = await run('inspect', `${relative}/dist/app.module.js`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"mode":{"type":"string","enum":["fast","slow"],"description":"how fast"}');
    expect(result.stdout).toContain('\n  greet - Greets someone.\n');
    expect(result.stdout).toContain('\n    from:   TypedTools.greet\n');
    expect(result.stdout.endsWith(`\nTypes: generated by mcp-reflect generate, from ${relative}/dist/mcp-metadata.js\n`)).toBe(true);
  });

  it('call validates against the generated types: a value outside the literal union is refused', async () => {
    const refused = await run('call', `${relative}/dist/app.module.js`, 'greet', '--args', '{"name":"Ada","mode":"banana"}');
    expect(refused).toMatchObject({ code: 1, stdout: '' });
    // (The generated module imports every class it describes, and the fixture describes some AppModule does not
    // provide: they are named on stderr first, as the server would name them.)
    expect(refused.stderr).toMatch(/\nTool greet returned an error: Invalid arguments for tool greet: mode: must be one of: "fast", "slow"\n$/);
    expect(await run('call', entry, 'greet', '--args', '{"name":"Ada","mode":"fast","times":1}')).toMatchObject({ code: 0, stdout: 'Hello Ada (fast)\n' });
  });

  it('--metadata <file> loads that module instead, for inspect and call', async () => {
    const file = `${relative}/walk-run.js`;
    const inspected = await run('inspect', `${relative}/dist/app.module.js`, '--json', '--metadata', file);
    expect(inspected.code).toBe(0);
    expect(modeOf(JSON.parse(inspected.stdout).tools)).toEqual({ type: 'string', enum: ['walk', 'run'], description: 'how fast' });
    const text = await run('inspect', `${relative}/dist/app.module.js`, `--metadata=${file}`);
    expect(text.stdout.endsWith(`\nTypes: generated by mcp-reflect generate, from ${file} (--metadata)\n`)).toBe(true);
    expect(await run('call', `${relative}/dist/app.module.js`, 'greet', '--metadata', file, '--args', '{"name":"Ada","mode":"run","times":1}')).toMatchObject({
      code: 0,
      stdout: 'Hello Ada (run)\n',
    });
    const refused = await run('call', `${relative}/dist/app.module.js`, 'greet', '--metadata', file, '--args', '{"name":"Ada","mode":"fast"}');
    expect(refused.code).toBe(1);
  });

  it('a module that passes McpModule.forRoot({ metadata }) itself is inspected with those types', async () => {
    const result = await run('inspect', `${relative}/dist/for-root.module.js`);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('"mode":{"type":"string","enum":["fast","slow"],"description":"how fast"}');
    expect(result.stdout.endsWith('\nTypes: generated by mcp-reflect generate, given by the module (McpModule.forRoot({ metadata }))\n')).toBe(true);
  });

  it('a --metadata file that is missing exits with 2, one that is not generated metadata with 1, each naming the file', async () => {
    const missing = await run('inspect', entry, '--metadata', 'nope/mcp-metadata.js');
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr:
        `Cannot find --metadata nope/mcp-metadata.js (looked at ${path.join(root, 'nope', 'mcp-metadata.js')}).\n` +
        'Give the module `mcp-reflect generate` wrote (e.g. --metadata dist/mcp-metadata.js for a built entry), or run `npx mcp-reflect generate`.\n',
    });
    const wrong = await run('call', entry, 'greet', '--metadata', 'spec/fixtures/cli-app.ts');
    expect(wrong).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Cannot use --metadata spec/fixtures/cli-app.ts: it is not a module written by `mcp-reflect generate` (it exports no `metadata` with { version, classes }).\n' +
        'Fix: pass the file `mcp-reflect generate` wrote (default: src/mcp-metadata.ts, built to dist/mcp-metadata.js), or regenerate it.\n',
    });
  });
});
