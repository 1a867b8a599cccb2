import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(__dirname, '..', '..');

/** `node tools/api-report.js --check [--reports folder]`: its exit code and what it printed. */
async function checkReports(folder?: string): Promise<{ code: number; output: string }> {
  const args = [path.join(root, 'tools', 'api-report.js'), '--check', ...(folder ? ['--reports', folder] : [])];
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: code ?? 1, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

/**
 * The public surface is committed: docs/api/<entry>.api.md, one API Extractor report per entry of package.json's
 * exports, made from the built declarations (dist/, the global set-up's build). A change of the surface fails here
 * until the reports are regenerated (`npm run build && npm run api`), so it shows in review.
 */
describe('the API report (docs/api/)', () => {
  it('has one report per entry of package.json exports', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const expected = Object.keys(manifest.exports)
      .filter((subpath) => subpath !== './package.json')
      .map((subpath) => (subpath === '.' ? 'mcp-reflect.api.md' : `mcp-reflect-${subpath.slice(2)}.api.md`))
      .sort();
    expect(readdirSync(path.join(root, 'docs', 'api')).sort()).toEqual(expected);
  });

  it('matches the built surface of every entry', async () => {
    const { code, output } = await checkReports();
    if (code !== 0) throw new Error(`docs/api/ differs from the built .d.ts:\n${output}`);
    expect(output).toContain('docs/api/ matches the built surface.');
  }, 120_000);

  it('fails on a surface that differs from the reports, printing the diff and the command that updates them', async () => {
    const reports = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-api-'));
    try {
      cpSync(path.join(root, 'docs', 'api'), reports, { recursive: true });
      const report = path.join(reports, 'mcp-reflect-redis.api.md');
      // As if RedisBus had been dropped from mcp-reflect/redis since the report was made.
      writeFileSync(report, readFileSync(report, 'utf8').replace(/^export class RedisBus\b/m, 'export class RedisBusRenamed'));
      const { code, output } = await checkReports(reports);
      expect(code).toBe(1);
      expect(output).toMatch(/^-export class RedisBusRenamed/m);
      expect(output).toMatch(/^\+export class RedisBus\b/m);
      expect(output).toContain('npm run build && npm run api');
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  }, 120_000);
});

/** The names the root entry still exports, deprecated, and their home: `@deprecated since 0.2.0: import from '<home>'`. */
function movedNames(): Map<string, string> {
  const index = readFileSync(path.join(root, 'lib', 'index.ts'), 'utf8');
  const moved = new Map<string, string>();
  for (const [, home, name] of index.matchAll(/@deprecated since [\d.]+: import from '([^']+)' \*\/\nexport (?:const|type) (\w+)/g)) moved.set(name!, home!);
  return moved;
}

/** The `import … from 'mcp-reflect…'` statements of a TypeScript source or markdown page: the entry and the names. */
function imports(text: string): { entry: string; names: string[] }[] {
  return [...text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from\s*'(mcp-reflect(?:\/[\w-]+)?)'/g)].map(([, names, entry]) => ({
    entry: entry!,
    names: names!.split(',').map((name) => name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]!).filter(Boolean),
  }));
}

function filesUnder(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name) && !path.join(entry.parentPath, entry.name).includes('node_modules'))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)));
}

/**
 * The published declarations hang together: every entry, /nest included (its peers are this repository's
 * devDependencies), imported by a project that type-checks them with `skipLibCheck` off. The build strips
 * `@internal` declarations, so a public signature that names one (a dangling import) fails here. The package
 * spec does the same from the packed tarball for the entries a plain consumer installs.
 */
describe('the built declarations (stripInternal)', () => {
  it('type-check with skipLibCheck off, every entry imported', async () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const entries = Object.keys(manifest.exports).filter((subpath) => subpath !== './package.json').map((subpath) => `mcp-reflect${subpath.slice(1)}`);
    const project = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-dts-'));
    try {
      mkdirSync(path.join(project, 'node_modules'));
      symlinkSync(root, path.join(project, 'node_modules', 'mcp-reflect'), 'dir');
      const compilerOptions = {
        target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: false,
        experimentalDecorators: true, types: ['node'], typeRoots: [path.join(root, 'node_modules', '@types')],
      };
      writeFileSync(path.join(project, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['entries.ts'] }));
      writeFileSync(path.join(project, 'entries.ts'), entries.map((entry, i) => `export * as entry${i} from '${entry}';\n`).join(''));
      expect(entries).toEqual(expect.arrayContaining(['mcp-reflect', 'mcp-reflect/nest', 'mcp-reflect/state', 'mcp-reflect/inspection']));
      const tsc = path.join(root, 'node_modules', '.bin', 'tsc');
      await promisify(execFile)(tsc, ['-p', project], { cwd: project, encoding: 'utf8' }).catch((error: { stdout?: string }) => {
        throw new Error(`the declarations in dist/ do not type-check (run npm run build first):\n${error.stdout ?? String(error)}`);
      });
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the homes of public names (CHANGELOG.md, 0.2.0)', () => {
  const docs = ['README.md', ...filesUnder(path.join(root, 'docs'), /\.md$/), ...filesUnder(path.join(root, 'samples'), /\.tsx?$/)];

  it('lists in CHANGELOG.md every name the root entry keeps as a deprecated alias', () => {
    const moved = movedNames();
    expect(moved.size).toBeGreaterThan(50);
    const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
    const unlisted = [...moved].filter(([name, home]) => !new RegExp('`' + name + '`[^\\n]*`' + home.replace('/', '\\/') + '`|^\\| `' + home.replace('/', '\\/') + '` \\|[^\\n]*`' + name + '`', 'm').test(changelog));
    expect(unlisted).toEqual([]);
  });

  it('has the docs and samples import each moved name from its home, never from the root', () => {
    const moved = movedNames();
    const stale = docs.flatMap((file) =>
      imports(readFileSync(path.join(root, file), 'utf8'))
        .filter(({ entry }) => entry === 'mcp-reflect')
        .flatMap(({ names }) => names.filter((name) => moved.has(name)).map((name) => `${file}: ${name} (from '${moved.get(name)}')`)),
    );
    expect(stale).toEqual([]);
  });

  it('has a NestJS application (docs/nestjs.md, samples/nest) import from mcp-reflect/nest and mcp-reflect/common only (and /testing in tests)', () => {
    const nest = ['docs/nestjs.md', ...filesUnder(path.join(root, 'samples', 'nest'), /\.ts$/)];
    const entries = nest.flatMap((file) => imports(readFileSync(path.join(root, file), 'utf8')).map(({ entry }) => `${file}: ${entry}`));
    expect(entries.length).toBeGreaterThan(5);
    expect(entries.filter((line) => !/: mcp-reflect\/(nest|common|testing)$/.test(line))).toEqual([]);
  });
});
