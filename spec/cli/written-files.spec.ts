import { execFile } from 'node:child_process';
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The built CLI (dist/cli/main.js, as npx runs it) as a process, with a HOME of its own. */
function cli(home: string, cwd: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NODE_OPTIONS: '' };
  delete env.XDG_CONFIG_HOME;
  delete env.APPDATA;
  return new Promise((resolve) =>
    execFile(process.execPath, [path.join(root, 'dist/cli/main.js'), ...args], { cwd, env, encoding: 'utf8', timeout: 120_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const VICTIM = '# the user\'s own file\nexport PATH=$HOME/bin:$PATH\n';
const isLink = (file: string) => lstatSync(file).isSymbolicLink();

/**
 * Every file the CLI writes is written beside its place and renamed over it: a symbolic link a cloned repository
 * ships at that place (`.mcp.json.bak -> ~/.bashrc`) is replaced, and the file it names is never written.
 */
describe('files the CLI writes never go through a link', () => {
  let home: string;
  let project: string;
  let victim: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-home-'));
    project = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-project-'));
    victim = path.join(home, '.bashrc');
    writeFileSync(victim, VICTIM);
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'weather' }));
    mkdirSync(path.join(project, 'dist'));
    writeFileSync(path.join(project, 'dist', 'main.js'), '');
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  describe('mcp-reflect install', () => {
    it('replaces a symbolic link at <file>.bak by the backup, and never writes the file it names', async () => {
      const config = path.join(project, '.mcp.json');
      const before = `${JSON.stringify({ mcpServers: { other: { command: 'other' } } })}\n`;
      writeFileSync(config, before);
      symlinkSync(victim, `${config}.bak`);
      const run = await cli(home, project, 'install', 'claude-code', 'dist/main.js');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
      expect(isLink(`${config}.bak`)).toBe(false);
      expect(readFileSync(`${config}.bak`, 'utf8')).toBe(before);
      expect(Object.keys(JSON.parse(readFileSync(config, 'utf8')).mcpServers)).toEqual(['other', 'weather']);
    });

    it('writes through a symbolic link at the configuration to the file it names, which stays a link, and says so', async () => {
      const dotfiles = path.join(home, 'dotfiles');
      mkdirSync(dotfiles);
      const real = path.join(dotfiles, 'mcp.json');
      writeFileSync(real, JSON.stringify({ theme: 'dark' }));
      const config = path.join(project, '.mcp.json');
      symlinkSync(real, config);
      const run = await cli(home, project, 'install', 'claude-code', 'dist/main.js');
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(isLink(config)).toBe(true);
      expect(readlinkSync(config)).toBe(real);
      expect(JSON.parse(readFileSync(real, 'utf8'))).toMatchObject({ theme: 'dark', mcpServers: { weather: { type: 'stdio' } } });
      expect(run.stdout).toContain(`${config} is a link: the file it names, ${real}, was written.`);
      // The backup is a file beside the link, not a second link.
      expect(isLink(`${config}.bak`)).toBe(false);
      expect(JSON.parse(readFileSync(`${config}.bak`, 'utf8'))).toEqual({ theme: 'dark' });
    });

    it('refuses a configuration that links to a folder, a device or nothing, with the reason, writing nothing', async () => {
      const config = path.join(project, '.mcp.json');
      const cases: [string, string][] = [
        [home, `Cannot install in ${config}: it is a link to ${home}, which is not a regular file, so mcp-reflect will not touch it.`],
        ['/dev/zero', `Cannot install in ${config}: it is a link to /dev/zero, which is not a regular file, so mcp-reflect will not touch it.`],
        [path.join(home, 'missing.json'), `Cannot install in ${config}: it is a symbolic link to a file that does not exist, so mcp-reflect will not touch it.`],
      ];
      for (const [target, message] of cases) {
        rmSync(config, { force: true });
        symlinkSync(target, config);
        const run = await cli(home, project, 'install', 'claude-code', 'dist/main.js');
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(message);
        expect(readlinkSync(config)).toBe(target);
      }
    });

    it("refuses a project folder that is a link (a cloned repository's .vscode -> elsewhere), writing nothing there", async () => {
      const elsewhere = path.join(home, 'elsewhere');
      mkdirSync(elsewhere);
      symlinkSync(elsewhere, path.join(project, '.vscode'));
      const run = await cli(home, project, 'install', 'vscode', 'dist/main.js');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`Cannot install in ${path.join(project, '.vscode', 'mcp.json')}: the folder ${path.join(project, '.vscode')} is a symbolic link (to ${elsewhere}), so the file would be written outside the project, and mcp-reflect will not follow it.`);
      expect(readdirSync(elsewhere)).toEqual([]);
    });

    it('keeps the permissions of a private configuration, for the file and its backup', async () => {
      const config = path.join(project, '.mcp.json');
      writeFileSync(config, JSON.stringify({ mcpServers: {} }), { mode: 0o600 });
      expect((await cli(home, project, 'install', 'claude-code', 'dist/main.js', '--env', 'API_KEY=secret')).code).toBe(0);
      expect(statSync(config).mode & 0o777).toBe(0o600);
      expect(statSync(`${config}.bak`).mode & 0o777).toBe(0o600);
    });
  });

  describe('mcp-reflect new --force', () => {
    it("replaces a link at a template file's name, leaving the file it names as it was", async () => {
      const folder = path.join(project, 'cloned');
      mkdirSync(folder);
      symlinkSync(victim, path.join(folder, 'tsconfig.json'));
      const run = await cli(home, project, 'new', folder, '--force', '--quiet');
      expect(run).toMatchObject({ code: 0 });
      expect(readFileSync(victim, 'utf8')).toBe(VICTIM);
      expect(isLink(path.join(folder, 'tsconfig.json'))).toBe(false);
      expect(JSON.parse(readFileSync(path.join(folder, 'tsconfig.json'), 'utf8'))).toHaveProperty('compilerOptions');
    });

    it('refuses a folder of the template that is a link, naming it, and writes nothing there', async () => {
      const folder = path.join(project, 'cloned');
      const elsewhere = path.join(home, 'config');
      mkdirSync(folder);
      mkdirSync(elsewhere);
      symlinkSync(elsewhere, path.join(folder, 'src'));
      const run = await cli(home, project, 'new', folder, '--force', '--quiet');
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(`Cannot write into ${path.join(folder, 'src')}: it is a symbolic link, and mcp-reflect new never writes through a link`);
      expect(() => statSync(path.join(folder, 'package.json'))).toThrow();
      expect(() => statSync(path.join(elsewhere, 'greeting.tools.ts'))).toThrow();
    });
  });

  describe('mcp-reflect generate', () => {
    jest.setTimeout(180_000);
    it('replaces a link at its output by the generated file', async () => {
      const copy = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-generate-'));
      try {
        cpSync(path.join(root, 'spec', 'fixtures', 'generate-project'), copy, { recursive: true });
        const out = path.join(copy, 'src', 'mcp-metadata.ts');
        // The linked file is read as a source of the project: valid TypeScript, so that only the write is at stake.
        const source = path.join(home, 'own.ts');
        writeFileSync(source, 'export const own = 1;\n');
        rmSync(out, { force: true });
        symlinkSync(source, out);
        const run = await cli(home, root, 'generate', '--project', path.join(copy, 'tsconfig.json'));
        expect(run).toMatchObject({ code: 0 });
        expect(readFileSync(source, 'utf8')).toBe('export const own = 1;\n');
        expect(isLink(out)).toBe(false);
        expect(readFileSync(out, 'utf8')).toContain('mcp-reflect generate');
      } finally {
        rmSync(copy, { recursive: true, force: true });
      }
    });
  });
});
