import { ChildProcess, execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../support/waiting';

const root = path.resolve(__dirname, '..', '..');
const fixture = path.join(root, 'spec', 'fixtures', 'generate-project');
const cliArgs = ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'generate'];

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function generate(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...cliArgs, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** A copy of the fixture beside it (so its tsconfig's paths still reach lib/), removed after the spec. */
function copyFixture(): string {
  const dir = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-generate-'));
  cpSync(fixture, dir, { recursive: true });
  return dir;
}

const noStack = (run: Run) => expect(run.stderr).not.toMatch(/\n\s+at /);

// Every step is a fresh Node process reading a project with the compiler: seconds each on a loaded CI machine.
jest.setTimeout(180_000);

describe('mcp-reflect generate (the CLI as a process)', () => {
  const copies: string[] = [];
  const copy = () => {
    const dir = copyFixture();
    copies.push(dir);
    return dir;
  };
  afterAll(() => copies.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('the committed fixture module is exactly what generating now writes (--check exits 0)', async () => {
    const run = await generate(['--project', path.join(fixture, 'tsconfig.json'), '--check']);
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toMatch(/src\/mcp-metadata\.ts is up to date \(17 component methods, 12 classes/);
  });

  it('samples/typed/mcp-metadata.ts is current (the sample that uses the generator)', async () => {
    const run = await generate(['--project', 'samples/typed/tsconfig.json', '--out', 'samples/typed/mcp-metadata.ts', '--check']);
    expect(run).toMatchObject({ code: 0 });
  });

  it('writes the module, then --check fails once a signature changes, and passes after regenerating', async () => {
    const dir = copy();
    const config = path.join(dir, 'tsconfig.json');
    rmSync(path.join(dir, 'src', 'mcp-metadata.ts'));
    const missing = await generate(['--project', config, '--check']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('is missing');

    const written = await generate(['--project', config]);
    expect(written.code).toBe(0);
    expect(written.stdout).toContain('Wrote');
    expect(readFileSync(path.join(dir, 'src', 'mcp-metadata.ts'), 'utf8')).toBe(readFileSync(path.join(fixture, 'src', 'mcp-metadata.ts'), 'utf8'));

    const tools = path.join(dir, 'src', 'tools.ts');
    writeFileSync(tools, readFileSync(tools, 'utf8').replace("@Param() mode: 'fast' | 'slow'", "@Param() mode: 'fast' | 'slow' | 'steady'"));
    const stale = await generate(['--project', config, '--check']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/is stale[\s\S]*npx mcp-reflect generate/);
    noStack(stale);

    expect((await generate(['--project', config, '--quiet'])).code).toBe(0);
    expect(readFileSync(path.join(dir, 'src', 'mcp-metadata.ts'), 'utf8')).toContain('"steady"');
    expect((await generate(['--project', config, '--check'])).code).toBe(0);
  });

  it('writes JSON or CommonJS when --out says so', async () => {
    const dir = copy();
    const json = await generate(['--project', path.join(dir, 'tsconfig.json'), '--out', path.join(dir, 'out', 'types.json')]);
    expect(json.code).toBe(0);
    const parsed = JSON.parse(readFileSync(path.join(dir, 'out', 'types.json'), 'utf8'));
    expect(parsed).toMatchObject({ version: 1, classes: expect.arrayContaining([expect.objectContaining({ name: 'TypedTools', file: 'src/tools.ts' })]) });
    const cjs = await generate(['--project', path.join(dir, 'tsconfig.json'), '--out', path.relative(root, path.join(dir, 'src', 'types.js'))]);
    expect(cjs.code).toBe(0);
    expect(readFileSync(path.join(dir, 'src', 'types.js'), 'utf8')).toMatch(/const (module\d+) = require\("\.\/tools"\);[\s\S]*get ref\(\) \{ return \1\.TypedTools; \}[\s\S]*exports\.metadata = metadata;/);
  });

  it('explains a missing tsconfig, a broken one, a syntax error and a bad --out, without stack traces', async () => {
    const absent = await generate(['--project', 'nowhere/tsconfig.json']);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toMatch(/There is no nowhere\/tsconfig\.json[\s\S]*--project/);
    noStack(absent);

    const broken = copy();
    writeFileSync(path.join(broken, 'tsconfig.json'), '{ "compilerOptions": { "strict": true, }, "include": ["src"');
    const badConfig = await generate(['--project', path.join(broken, 'tsconfig.json')]);
    expect(badConfig.code).toBe(1);
    expect(badConfig.stderr).toMatch(/tsconfig\.json/);
    expect(badConfig.stderr).toMatch(/Fix:/);
    noStack(badConfig);

    const syntax = copy();
    writeFileSync(path.join(syntax, 'src', 'broken.ts'), 'export class Broken {\n  @Tool() run(: string) {}\n');
    const badSource = await generate(['--project', path.join(syntax, 'tsconfig.json')]);
    expect(badSource.code).toBe(1);
    expect(badSource.stderr).toMatch(/src\/broken\.ts:2:\d+ - /);
    noStack(badSource);

    const badOut = await generate(['--project', path.join(fixture, 'tsconfig.json'), '--out', 'types.txt']);
    expect(badOut.code).toBe(2);
    expect(badOut.stderr).toContain('.ts, .mts, .js (CommonJS), .mjs or .json');
  });

  it('--help describes the command; --check with --watch is a usage error', async () => {
    const help = await generate(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: mcp-reflect generate[\s\S]*--check[\s\S]*--watch/);
    expect((await generate(['--check', '--watch'])).code).toBe(2);
  });

  it('--watch regenerates when a source file changes, and stops on SIGTERM', async () => {
    const dir = copy();
    const out = path.join(dir, 'src', 'mcp-metadata.ts');
    const child: ChildProcess = spawn(process.execPath, [...cliArgs, '--project', path.join(dir, 'tsconfig.json'), '--watch'], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    try {
      await waitFor(() => stderr.includes("17 component methods"), { timeout: 20_000 });
      const tools = path.join(dir, 'src', 'tools.ts');
      writeFileSync(tools, readFileSync(tools, 'utf8').replace('@Param() loud?: boolean', '@Param() loud?: boolean, @Param() shout?: string'));
      await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').includes('"shout"'), { timeout: 20_000 });
    } finally {
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    }
  });
});
