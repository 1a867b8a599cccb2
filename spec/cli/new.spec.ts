import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { scaffoldVersions } from '../../lib/cli/new/versions';

const root = path.resolve(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  version: string;
  devDependencies: Record<string, string>;
};

/** As in spec/package: children see neither this jest worker nor the npm script running it; npm's cache is kept. */
const childEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !/^(JEST_|npm_package_|npm_lifecycle_)/.test(key) && !['npm_config_local_prefix', 'npm_command', 'NODE_OPTIONS'].includes(key),
  ),
) as Record<string, string>;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function exec(cmd: string, args: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(cmd, args, { cwd, encoding: 'utf8', env: childEnv, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function succeed(cmd: string, args: readonly string[], cwd: string): Promise<string> {
  const run = await exec(cmd, args, cwd);
  if (run.code !== 0) throw new Error(`${cmd} ${args.join(' ')} failed in ${cwd} (${run.code}):\n${run.stdout}\n${run.stderr}`);
  return run.stdout;
}

/** `mcp-reflect` from its TypeScript source, through spec/support/register.js. */
const cli = (cwd: string, ...args: string[]) => exec(process.execPath, ['-r', path.join(root, 'spec/support/register.js'), path.join(root, 'lib/cli/main.ts'), ...args], cwd);

/** The file a doc page gives in full after `<!-- file: path -->` or `<!-- file: path (Kind) -->`. */
function docFile(page: string, file: string, kind?: string): string {
  const markdown = readFileSync(path.join(root, 'docs', page), 'utf8');
  const marker = `<!-- file: ${file}${kind ? ` (${kind})` : ''} -->\n`;
  const match = new RegExp(`${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\`\`\`\\w*\\n([\\s\\S]*?)\\n\`\`\``).exec(markdown);
  if (!match) throw new Error(`docs/${page} gives no ${file}${kind ? ` (${kind})` : ''}`);
  return `${match[1]}\n`;
}

function filesUnder(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full, base) : [path.relative(base, full).split(path.sep).join('/')];
  });
}

const templateFiles = [
  '.gitignore',
  '.swcrc',
  'README.md',
  'jest.config.js',
  'package.json',
  'src/app.module.ts',
  'src/greeting.tools.spec.ts',
  'src/greeting.tools.ts',
  'src/main.ts',
  'tsconfig.json',
];

/**
 * The library as a user installs it, without touching this repository's dist/ (spec/package packs that):
 * lib/ built into a scratch folder with tsconfig.build.json, then `npm pack --ignore-scripts` there.
 */
async function packLibrary(scratch: string): Promise<string> {
  const pkg = path.join(scratch, 'package');
  mkdirSync(pkg, { recursive: true });
  await succeed(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json'), '--outDir', path.join(pkg, 'dist')], root);
  for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(path.join(root, file), path.join(pkg, file));
  const name = (await succeed(npm, ['pack', '--ignore-scripts', '--silent', '--pack-destination', scratch], pkg)).trim().split('\n').pop()!;
  return path.join(scratch, name);
}

describe('mcp-reflect new', () => {
  let scratch: string;
  beforeAll(() => (scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-new-'))));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('has its --help, and is listed by mcp-reflect --help', async () => {
    const help = await cli(scratch, 'new', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: mcp-reflect new <dir> \[--name <package-name>\] \[--from <tarball \| folder>\] \[--force\]\n[\s\S]*--force[\s\S]*--quiet/);
    expect((await cli(scratch, '--help', 'new')).stdout).toBe(help.stdout);
    expect((await cli(scratch, '--help')).stdout).toMatch(/\n {2}new <dir> {15}create a project/);
  });

  it('writes the project files, named after the folder, and prints the next steps', async () => {
    const result = await cli(scratch, 'new', 'My Server', '--quiet');
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const dir = path.join(scratch, 'My Server');
    expect(filesUnder(dir).sort()).toEqual(templateFiles);
    expect(result.stdout).toContain(`Created my-server in ${dir}:\n  package.json\n`);
    expect(result.stdout).toMatch(/\nNext steps:\n {2}cd "My Server"\n {2}npm install\n {2}npm test .*\n {2}npm run build .*\n {2}npm start .*\n {2}npm run inspect .*\n$/);
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'));
    expect(pkg).toMatchObject({ name: 'my-server', private: true, type: 'commonjs', scripts: { generate: 'mcp-reflect generate', test: 'mcp-reflect generate --quiet && tsc --noEmit && jest' } });
    expect(readFileSync(path.join(dir, 'src/app.module.ts'), 'utf8')).toContain("McpModule.forRoot({ name: 'my-server', version: '0.1.0' })");
  });

  it('uses --name, and refuses an invalid one with exit code 2', async () => {
    expect(await cli(scratch, 'new', 'named', '--name', '@acme/weather', '--quiet')).toMatchObject({ code: 0 });
    expect(JSON.parse(readFileSync(path.join(scratch, 'named', 'package.json'), 'utf8')).name).toBe('@acme/weather');
    const bad = await cli(scratch, 'new', 'bad', '--name', 'Bad Name');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^Invalid --name "Bad Name": a package name is lower case/);
    expect(existsSync(path.join(scratch, 'bad'))).toBe(false);
  });

  it('--from a built clone packs it into vendor/; refuses what is not a tarball or a built clone of mcp-reflect', async () => {
    const clone = path.join(scratch, 'clone');
    mkdirSync(path.join(clone, 'dist'), { recursive: true });
    writeFileSync(path.join(clone, 'package.json'), JSON.stringify({ name: 'mcp-reflect', version: '9.8.7', files: ['dist'] }));
    writeFileSync(path.join(clone, 'dist', 'index.js'), 'module.exports = {};\n');
    const made = await cli(scratch, 'new', 'from-clone', '--quiet', '--from', clone);
    expect(made).toMatchObject({ code: 0 });
    expect(made.stdout).toContain('  vendor/mcp-reflect-9.8.7.tgz  (mcp-reflect, the dependency file:vendor/mcp-reflect-9.8.7.tgz)');
    expect(JSON.parse(readFileSync(path.join(scratch, 'from-clone', 'package.json'), 'utf8')).dependencies['mcp-reflect']).toBe('file:vendor/mcp-reflect-9.8.7.tgz');
    expect(existsSync(path.join(scratch, 'from-clone', 'vendor', 'mcp-reflect-9.8.7.tgz'))).toBe(true);

    rmSync(path.join(clone, 'dist'), { recursive: true });
    expect((await cli(scratch, 'new', 'unbuilt', '--from', clone)).stderr).toMatch(/the clone is not built \(no dist\/index.js\)/);
    writeFileSync(path.join(clone, 'package.json'), JSON.stringify({ name: 'other' }));
    expect((await cli(scratch, 'new', 'other', '--from', clone)).stderr).toMatch(/not a clone of mcp-reflect \(its package.json names "other"\)/);
    expect(await cli(scratch, 'new', 'missing', '--from', path.join(scratch, 'nothing.tgz'))).toMatchObject({ code: 2, stderr: expect.stringMatching(/nothing is there/) });
    expect(existsSync(path.join(scratch, 'unbuilt'))).toBe(false);
  });

  it('refuses a folder that is not empty (exit code 2, nothing written) unless --force; and a file', async () => {
    const dir = path.join(scratch, 'busy');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    writeFileSync(path.join(dir, 'package.json'), '{}');
    const refused = await cli(scratch, 'new', 'busy');
    expect(refused).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'Cannot create a project in busy: the folder is not empty (it holds notes.txt, package.json).\n' +
        "Give a new or empty folder, or pass --force to write the template's files into it (files of the same name are replaced, others are kept).\n",
    });
    expect(readdirSync(dir).sort()).toEqual(['notes.txt', 'package.json']);
    expect(await cli(scratch, 'new', 'busy', '--force', '--quiet')).toMatchObject({ code: 0, stderr: '' });
    expect(filesUnder(dir).sort()).toEqual([...templateFiles, 'notes.txt'].sort());
    expect(readFileSync(path.join(dir, 'notes.txt'), 'utf8')).toBe('mine');
    expect(JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')).name).toBe('busy');
    const file = await cli(scratch, 'new', 'busy/notes.txt');
    expect(file).toMatchObject({ code: 2, stdout: '' });
    expect(file.stderr).toMatch(/^Cannot create a project in busy\/notes\.txt: it is a file, not a folder\./);
  });

  it('gives the tsconfig of docs/setup.md and the jest set-up of docs/testing.md, verbatim', async () => {
    expect(await cli(scratch, 'new', 'docs', '--quiet')).toMatchObject({ code: 0 });
    const read = (file: string) => readFileSync(path.join(scratch, 'docs', file), 'utf8');
    expect(read('tsconfig.json')).toBe(docFile('setup.md', 'tsconfig.json'));
    expect(read('.swcrc')).toBe(docFile('testing.md', '.swcrc'));
    expect(read('jest.config.js')).toBe(docFile('testing.md', 'jest.config.js', 'CommonJS'));
  });

  it('pins the versions of this package and of the packages this repository builds and tests with', () => {
    const { 'mcp-reflect': own, '@jest/globals': globals, ...rest } = scaffoldVersions;
    expect(own).toBe(manifest.version);
    expect(globals).toBe(manifest.devDependencies.jest);
    for (const [name, version] of Object.entries(rest)) expect(`${name}@${manifest.devDependencies[name]}`).toBe(`${name}@${version}`);
  });

  it('makes a project that installs against the packed library and passes its own npm test (tsc 7, jest with @swc/jest), builds, inspects and serves', async () => {
    const tarball = await packLibrary(scratch);
    const app = path.join(scratch, 'app');
    // --from: the route before publication (README): the tarball goes into vendor/, the dependency points at it.
    expect(await cli(scratch, 'new', 'app', '--quiet', '--from', tarball)).toMatchObject({ code: 0 });
    const vendored = `vendor/${path.basename(tarball)}`;
    expect(JSON.parse(readFileSync(path.join(app, 'package.json'), 'utf8')).dependencies['mcp-reflect']).toBe(`file:${vendored}`);
    expect(readFileSync(path.join(app, vendored))).toEqual(readFileSync(tarball));
    const scaffolded = templateFiles.map((file) => `${file}: ${readFileSync(path.join(app, file), 'utf8')}`);
    // As spec/package: the versions pinned above are in the npm cache, so the install works offline.
    await succeed(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'], app);
    expect((await succeed(path.join(app, 'node_modules/.bin/tsc'), ['--version'], app)).trim()).toBe(`Version ${scaffoldVersions.typescript}`);

    const output = await succeed(npm, ['test', '--silent', '--', '--ci', '--json'], app);
    const report = JSON.parse(output.slice(output.indexOf('{')));
    expect({ passed: report.numPassedTests, failed: report.numFailedTests, suites: report.numTotalTestSuites }).toEqual({ passed: 3, failed: 0, suites: 1 });

    await succeed(npm, ['run', 'build', '--silent'], app);
    const bin = path.join(app, 'node_modules/.bin/mcp-reflect');
    const listed = JSON.parse(await succeed(bin, ['inspect', 'dist/app.module.js', '--json'], app));
    expect(listed.tools.map((tool: { name: string }) => tool.name)).toEqual(['greet', 'add']);
    // inspect loads the generated types `npm run build` compiled beside the entry (dist/mcp-metadata.js), as
    // src/main.ts passes them to the server: the literal union is an enum here too (issue 23).
    expect(listed.tools[0].inputSchema.properties.style).toMatchObject({ enum: expect.arrayContaining(['plain', 'excited']), default: 'plain' });
    const text = await succeed(bin, ['inspect', 'dist/app.module.js'], app);
    expect(text).toContain('\n    from:   GreetingTools.greet\n');
    expect(text.endsWith('\nTypes: generated by mcp-reflect generate, from dist/mcp-metadata.js\n')).toBe(true);

    // The templates ship inside dist/: the installed bin writes the same project.
    const again = await exec(bin, ['new', path.join(scratch, 'again'), '--name', 'app', '--quiet', '--from', tarball], scratch);
    expect(again).toMatchObject({ code: 0, stderr: '' });
    expect(templateFiles.map((file) => `${file}: ${readFileSync(path.join(scratch, 'again', file), 'utf8')}`)).toEqual(scaffolded);

    const transport = new StdioClientTransport({ command: process.execPath, args: ['dist/main.js'], cwd: app, stderr: 'pipe', env: childEnv });
    const client = new Client({ name: 'new-spec', version: '1.0.0' });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'app', version: '0.1.0' });
      expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).content).toEqual([{ type: 'text', text: 'Hello, Ada!' }]);
      // The types the scaffold's own `npm test` generated: the literal union is an enum on the wire.
      const { tools } = await client.listTools();
      expect(tools[0]!.inputSchema.properties!.style).toMatchObject({ enum: expect.arrayContaining(['plain', 'excited']), default: 'plain' });
      expect(tools).toEqual(listed.tools); // what inspect showed is what the server serves
      expect(existsSync(path.join(app, 'src', 'mcp-metadata.ts'))).toBe(true);
    } finally {
      await client.close();
    }
  }, 300_000);
});
