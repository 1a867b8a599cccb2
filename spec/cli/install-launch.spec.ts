import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { transformSync } from '@swc/core';

const root = path.resolve(__dirname, '..', '..');

/** What `install` wrote for a stdio server. */
interface Written {
  command: string;
  args: string[];
  env?: Record<string, string>;
  cwd?: string;
}

/** `mcp-reflect install` as a process, with a HOME of its own and the project as its working directory. */
function install(home: string, cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, NODE_OPTIONS: '' };
  delete env.XDG_CONFIG_HOME;
  delete env.APPDATA;
  return new Promise((resolve) =>
    execFile(process.execPath, ['-r', path.join(root, 'spec/support/register.js'), path.join(root, 'lib/cli/main.ts'), 'install', ...args], { cwd, env, encoding: 'utf8' }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

/** The greetings API the launched server's OpenAPI tools call: GET /hello?name=… answers { text }. */
const DOCUMENT = {
  openapi: '3.1.0',
  info: { title: 'Greetings', version: '1.0.0' },
  paths: {
    '/hello': {
      get: {
        operationId: 'hello',
        parameters: [{ name: 'name', in: 'query', required: true, schema: { type: 'string' } }],
        responses: { 200: { description: 'A greeting', content: { 'application/json': { schema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } } } } },
      },
    },
  },
};

/**
 * Item 7 of issue 39: a host starts the installed server from a folder of its own (not the project), with exactly
 * the command, arguments, environment and (where its format has one) working directory that `install` wrote.
 */
describe('mcp-reflect install: the server starts as the host starts it, from anywhere', () => {
  let home: string;
  let project: string;
  let elsewhere: string;
  let api: Server;
  let apiUrl: string;
  beforeAll(async () => {
    if (!existsSync(path.join(root, 'dist', 'index.js'))) throw new Error('dist/ is missing: run `npm run build` first (the launched entry requires the built mcp-reflect).');
    api = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://localhost');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: `hello ${url.searchParams.get('name')}` }));
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => api.close(() => resolve())));

  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-home-'));
    elsewhere = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-reflect-elsewhere-')));
    // A built project: dist/main.js (the fixture, compiled as `npm run build` would) beside its OpenAPI document,
    // with mcp-reflect and reflect-metadata installed (links to this repository's build and its copy).
    project = realpathSync(mkdtempSync(path.join(tmpdir(), 'mcp-reflect-project-')));
    writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: '@acme/greetings' }));
    mkdirSync(path.join(project, 'dist'));
    const swc = JSON.parse(readFileSync(path.join(root, '.swcrc'), 'utf8'));
    const fixture = path.join(root, 'spec', 'fixtures', 'launch', 'launch-app.ts');
    const { code } = transformSync(readFileSync(fixture, 'utf8'), { ...swc, sourceMaps: false, swcrc: false, filename: fixture });
    writeFileSync(path.join(project, 'dist', 'main.js'), code);
    writeFileSync(path.join(project, 'dist', 'greetings.openapi.json'), JSON.stringify(DOCUMENT));
    mkdirSync(path.join(project, 'node_modules'));
    symlinkSync(root, path.join(project, 'node_modules', 'mcp-reflect'), 'dir');
    symlinkSync(path.join(root, 'node_modules', 'reflect-metadata'), path.join(project, 'node_modules', 'reflect-metadata'), 'dir');
  });
  afterEach(() => {
    for (const dir of [home, project, elsewhere]) rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, (home: string, project: string) => string, string][] = [
    ['claude-desktop', (h) => path.join(h, '.config', 'Claude', 'claude_desktop_config.json'), 'mcpServers'],
    ['gemini-cli', (h) => path.join(h, '.gemini', 'settings.json'), 'mcpServers'],
  ];

  it.each(cases)('%s: absolute paths, the arguments after --, the environment; started from another folder, it serves its OpenAPI tools', async (host, fileOf, key) => {
    const run = await install(home, project, host, 'dist/main.js', '--env', `GREETINGS_URL=${apiUrl}`, '--', '--stdio', '--greeting', 'hi there');
    expect(run).toMatchObject({ code: 0, stderr: '' });
    const written = (JSON.parse(readFileSync(fileOf(home, project), 'utf8')) as Record<string, Record<string, Written>>)[key]!.greetings!;
    const entry = path.join(project, 'dist', 'main.js');
    expect(written).toEqual({
      command: process.execPath,
      args: [entry, '--stdio', '--greeting', 'hi there'],
      env: { GREETINGS_URL: apiUrl },
      ...(host === 'gemini-cli' ? { cwd: project } : {}),
    });
    expect(path.isAbsolute(written.command)).toBe(true);

    // Exactly what the host would run: the command, its arguments, its environment, in its folder (or the host's own).
    const transport = new StdioClientTransport({ command: written.command, args: written.args, env: written.env, cwd: written.cwd ?? elsewhere, stderr: 'pipe' });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => void stderr.push(chunk.toString()));
    const client = new Client({ name: 'host', version: '1.0.0' });
    try {
      await client.connect(transport);
      const started = await client.callTool({ name: 'started', arguments: {} });
      expect(started.structuredContent).toEqual({ args: ['--stdio', '--greeting', 'hi there'], cwd: written.cwd ?? elsewhere });
      const hello = await client.callTool({ name: 'greetings_hello', arguments: { name: 'host' } });
      expect(hello).toMatchObject({ structuredContent: { text: 'hello host' } });
    } catch (error) {
      throw new Error(`${String(error)}\nstderr of the server: ${stderr.join('')}`);
    } finally {
      await client.close();
    }
  });

  it('a relative document path, started from another folder, fails the bootstrap naming that folder, the file it tried and the fix', async () => {
    expect((await install(home, project, 'claude-desktop', 'dist/main.js', '--', '--stdio', '--relative-document')).code).toBe(0);
    const written = (JSON.parse(readFileSync(path.join(home, '.config', 'Claude', 'claude_desktop_config.json'), 'utf8')) as { mcpServers: Record<string, Written> }).mcpServers.greetings!;
    const ended = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(written.command, written.args, { cwd: elsewhere, env: { ...process.env, ...written.env }, encoding: 'utf8', timeout: 30_000 }, (error, _stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stderr }),
      ),
    );
    expect(ended.code).toBe(1);
    expect(ended.stderr).toContain(
      `Cannot serve the OpenAPI document ./greetings.openapi.json (McpModule.fromOpenApi({ namespace: 'greetings' })): the file cannot be opened (ENOENT): ` +
        `the relative path ./greetings.openapi.json is read from the working directory, ${elsewhere}, as ${path.join(elsewhere, 'greetings.openapi.json')} ` +
        '(a host such as Claude Desktop, Cursor or VS Code starts a server from a folder of its own).\n' +
        "Fix: give a path that does not depend on the working directory: the document's place from the module that declares it, join(__dirname, 'greetings.openapi.json') " +
        "(import { join } from 'node:path'; in an ES module, join(import.meta.dirname, 'greetings.openapi.json')), with the file copied beside the built module.",
    );
  });

  it('refuses arguments for a URL, and tells where an argument without -- goes', async () => {
    const url = await install(home, project, 'cursor', 'https://mcp.example.com/mcp', '--', '--stdio');
    expect(url).toMatchObject({ code: 2 });
    expect(url.stderr).toContain('Cannot pass arguments (--stdio) to https://mcp.example.com/mcp: a URL is reached, not started.');
    const stray = await install(home, project, 'cursor', 'dist/main.js', 'extra');
    expect(stray.stderr).toContain("got an unexpected argument: extra. To pass the entry's own arguments, put them after --, e.g. `mcp-reflect install <host> <entry> -- extra`.");
  });
});
