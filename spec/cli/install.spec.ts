import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `mcp-reflect install` as a process, with a HOME of its own and the project as its working directory. */
function install(home: string, cwd: string, ...args: string[]): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NODE_OPTIONS: '' };
  delete env.XDG_CONFIG_HOME;
  delete env.APPDATA;
  return new Promise((resolve) =>
    execFile(process.execPath, ['-r', path.join(root, 'spec/support/register.js'), path.join(root, 'lib/cli/main.ts'), 'install', ...args], { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('mcp-reflect install', () => {
  let home: string;
  let project: string;
  let entry: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-home-'));
    project = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-project-'));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: '@acme/weather' }));
    mkdirSync(path.join(project, 'dist'));
    entry = path.join(project, 'dist', 'main.js');
    writeFileSync(entry, '');
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(project, { recursive: true, force: true });
  });

  const stdio = (extra: object = {}) => ({ command: process.execPath, args: [entry], ...extra });
  // Linux locations (the machine the specs run on); macOS and Windows differ as docs/cli.md says.
  const cases: [string, (home: string, project: string) => string, (e: ReturnType<typeof stdio>) => object, string][] = [
    ['claude-desktop', (h) => path.join(h, '.config', 'Claude', 'claude_desktop_config.json'), (e) => e, 'mcpServers'],
    ['claude-code', (_h, p) => path.join(p, '.mcp.json'), (e) => ({ type: 'stdio', ...e }), 'mcpServers'],
    ['cursor', (h) => path.join(h, '.cursor', 'mcp.json'), (e) => e, 'mcpServers'],
    ['vscode', (_h, p) => path.join(p, '.vscode', 'mcp.json'), (e) => ({ type: 'stdio', ...e }), 'servers'],
    ['windsurf', (h) => path.join(h, '.codeium', 'windsurf', 'mcp_config.json'), (e) => e, 'mcpServers'],
    ['gemini-cli', (h) => path.join(h, '.gemini', 'settings.json'), (e) => ({ ...e, cwd: project }), 'mcpServers'], // its format has a working directory
    ['mcp-json', (_h, p) => path.join(p, 'mcp.json'), (e) => e, 'mcpServers'],
  ];

  it.each(cases)('%s: writes the stdio entry with absolute paths at its documented location, named after the package', async (host, fileOf, shape, key) => {
    const run = await install(home, project, host, 'dist/main.js', '--env', 'API_KEY=secret', '--env', 'MODE=a=b');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const file = fileOf(home, project);
    expect(readFileSync(file, 'utf8')).toBe(`${JSON.stringify({ [key]: { weather: shape(stdio({ env: { API_KEY: 'secret', MODE: 'a=b' } })) } }, null, 2)}\n`);
    expect(run.stdout).toContain(`Added weather in ${file}`);
  });

  it('takes an --env value as it is: a PEM key with its newlines, a value that starts with a dash', async () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nMIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEA\n-----END PRIVATE KEY-----';
    const run = await install(home, project, 'cursor', 'dist/main.js', '--env', `SIGNING_KEY=${pem}`, '--env', 'OFFSET=-1');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(json(path.join(home, '.cursor', 'mcp.json')).mcpServers.weather.env).toEqual({ SIGNING_KEY: pem, OFFSET: '-1' });
  });

  it('keeps the other entries and settings, backs the file up, and replaces only its own entry', async () => {
    const file = path.join(home, '.cursor', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const before = { theme: 'dark', mcpServers: { other: { command: 'other-server' } } };
    writeFileSync(file, JSON.stringify(before));
    expect((await install(home, project, 'cursor', entry, '--name', 'wx')).code).toBe(0);
    expect(json(file)).toEqual({ theme: 'dark', mcpServers: { other: { command: 'other-server' }, wx: stdio() } });
    expect(json(`${file}.bak`)).toEqual(before);
    const again = await install(home, project, 'cursor', 'https://mcp.example.com/mcp', '--name', 'wx', '--header', 'Authorization: Bearer abc');
    expect(again.stdout).toContain('Replaced wx');
    expect(json(file).mcpServers).toEqual({ other: { command: 'other-server' }, wx: { url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer abc' } } });
  });

  it('edits a file with comments and its own formatting in place: every byte but its entry is kept (dry run, add, replace)', async () => {
    const file = path.join(project, '.vscode', 'mcp.json');
    mkdirSync(path.dirname(file), { recursive: true });
    // VS Code's mcp.json as a person keeps it: comments, four spaces, an input first, a one-line entry, trailing commas.
    const before = [
      '// Servers for this workspace',
      '{',
      '    "inputs": [ { "type": "promptString", "id": "api-key", "password": true } ], // asked once',
      '    "servers": {',
      '        /* the team\'s own */',
      '        "other": { "command": "other-server" }, // keep on one line',
      '    },',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, before);
    const entryLines = (name: string, indent: string) => [
      `${indent}"${name}": {`,
      `${indent}    "type": "stdio",`,
      `${indent}    "command": ${JSON.stringify(process.execPath)},`,
      `${indent}    "args": [`,
      `${indent}        ${JSON.stringify(entry)}`,
      `${indent}    ]`,
      `${indent}}`,
    ];
    const added = [...before.split('\n').slice(0, 6), ...entryLines('wx', '        ').map((line, i, all) => (i === all.length - 1 ? `${line},` : line)), ...before.split('\n').slice(6)].join('\n');

    const dry = await install(home, project, 'vscode', entry, '--name', 'wx', '--dry-run');
    expect(dry).toMatchObject({ code: 0, stderr: '', stdout: `Would write ${file}:\n${added}\n` });
    expect(readFileSync(file, 'utf8')).toBe(before);

    expect(await install(home, project, 'vscode', entry, '--name', 'wx')).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(file, 'utf8')).toBe(added);
    expect(readFileSync(`${file}.bak`, 'utf8')).toBe(before);

    // Replacing the one-line entry changes that entry only: its comment, the comma after it and the rest stay.
    const replaced = await install(home, project, 'vscode', entry, '--name', 'other');
    expect(replaced.stdout).toContain('Replaced other');
    const lines = added.split('\n');
    const other = entryLines('other', '        ');
    other[0] = '        "other": {';
    other[other.length - 1] = '        }, // keep on one line';
    expect(readFileSync(file, 'utf8')).toBe([...lines.slice(0, 5), ...other, ...lines.slice(6)].join('\n'));
  });

  it('keeps a byte-order mark, tabs, CRLF line ends and a one-line (minified) file as they are, adding the servers key where it is missing', async () => {
    const file = path.join(home, '.gemini', 'settings.json');
    mkdirSync(path.dirname(file), { recursive: true });
    // As an editor on Windows may save it: a byte-order mark first, CRLF line ends, tabs.
    writeFileSync(file, '\uFEFF{\r\n\t"theme": "dark" // the editor\'s\r\n}\r\n');
    expect((await install(home, project, 'gemini-cli', entry)).code).toBe(0);
    const tab = (n: number, line: string) => `${'\t'.repeat(n)}${line}`;
    expect(readFileSync(file, 'utf8')).toBe(
      [
        '\uFEFF{',
        tab(1, '"theme": "dark", // the editor\'s'),
        tab(1, '"mcpServers": {'),
        tab(2, '"weather": {'),
        tab(3, `"command": ${JSON.stringify(process.execPath)},`),
        tab(3, '"args": ['),
        tab(4, JSON.stringify(entry)),
        tab(3, '],'),
        tab(3, `"cwd": ${JSON.stringify(project)}`),
        tab(2, '}'),
        tab(1, '}'),
        '}',
        '',
      ].join('\r\n'),
    );
    const cursor = path.join(home, '.cursor', 'mcp.json');
    mkdirSync(path.dirname(cursor), { recursive: true });
    writeFileSync(cursor, '{"mcpServers":{"other":{"command":"o"}}}');
    expect((await install(home, project, 'cursor', entry)).code).toBe(0);
    expect(readFileSync(cursor, 'utf8')).toBe(`{"mcpServers":{"other":{"command":"o"},"weather": ${JSON.stringify(stdio())}}}`);
  });

  it('writes HTTP entries in each host\'s words; Claude Desktop refuses a URL, naming where remote servers go', async () => {
    const url = 'https://mcp.example.com/mcp';
    expect((await install(home, project, 'vscode', url)).code).toBe(0);
    expect(json(path.join(project, '.vscode', 'mcp.json'))).toEqual({ servers: { 'mcp.example.com': { type: 'http', url } } });
    expect((await install(home, project, 'gemini-cli', url, '--name', 'ex')).code).toBe(0);
    expect(json(path.join(home, '.gemini', 'settings.json'))).toEqual({ mcpServers: { ex: { httpUrl: url } } });
    expect((await install(home, project, 'windsurf', url, '--name', 'ex')).code).toBe(0);
    expect(json(path.join(home, '.codeium', 'windsurf', 'mcp_config.json'))).toEqual({ mcpServers: { ex: { serverUrl: url } } });
    const desktop = await install(home, project, 'claude-desktop', url);
    expect(desktop).toMatchObject({ code: 2 });
    expect(desktop.stderr).toContain('Settings → Connectors');
  });

  it('--scope picks the other place; --dry-run prints the file and writes nothing', async () => {
    expect((await install(home, project, 'claude-code', entry, '--scope', 'user')).code).toBe(0);
    expect(json(path.join(home, '.claude.json')).mcpServers.weather).toEqual({ type: 'stdio', ...stdio() });
    const dry = await install(home, project, 'cursor', entry, '--scope', 'project', '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toBe(`Would write ${path.join(project, '.cursor', 'mcp.json')}:\n${JSON.stringify({ mcpServers: { weather: stdio() } }, null, 2)}\n\n`);
    expect(existsSync(path.join(project, '.cursor'))).toBe(false);
    expect((await install(home, project, 'windsurf', entry, '--scope', 'project')).stderr).toContain('Windsurf has no project scope');
  });

  it('refuses a malformed file, naming it with the line, the column and what is wrong there, and leaves it as it was', async () => {
    const file = path.join(home, '.gemini', 'settings.json');
    mkdirSync(path.dirname(file), { recursive: true });
    const broken = '{\n  "theme": "dark",\n  "mcpServers": { oops }\n}\n';
    writeFileSync(file, broken);
    const run = await install(home, project, 'gemini-cli', entry);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `Cannot install in ${file}:3:19: it is not valid JSON (InvalidSymbol: a character that JSON does not allow here, found "oops"), so mcp-reflect will not touch it.\n` +
        'Fix the file at that place (comments and trailing commas are fine), or move it away, then run this again.\n',
    );
    expect(readFileSync(file, 'utf8')).toBe(broken);
    expect(existsSync(`${file}.bak`)).toBe(false);
  });

  it('refuses an unknown host, a TypeScript entry, a missing entry and a bad --env', async () => {
    expect((await install(home, project, 'notepad', entry)).stderr).toMatch(/^Unknown host notepad: mcp-reflect install knows claude-desktop, claude-code, cursor, vscode, windsurf, gemini-cli, mcp-json\./);
    writeFileSync(path.join(project, 'main.ts'), '');
    expect((await install(home, project, 'cursor', 'main.ts')).stderr).toContain('Build first (npm run build) and give the .js file');
    expect((await install(home, project, 'cursor', 'dist/missing.js')).code).toBe(2);
    expect((await install(home, project, 'cursor', entry, '--env', 'not a pair')).stderr).toContain('Invalid --env "not a pair": give KEY=VALUE');
  });
});
