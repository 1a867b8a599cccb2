import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A user's project bundled as docs/runtimes.md says, where esbuild renames the tool's parameters: the project has a
 * module declaring `url`, `date` and `country` at top level, so in the bundle's one scope `lookup(url, date,
 * country, times = 1)` becomes `lookup(url2, date4, country2, times = 1)`. Built with the TypeScript 7 compiler
 * (tsc, then `mcp-reflect generate` from dist/, the global set-up's build), bundled with the esbuild of
 * node_modules, run by Node and driven over stdio by the official SDK client.
 */
const root = path.resolve(__dirname, '..', '..');
const fixture = path.join(root, 'spec', 'fixtures', 'renamed-bundle');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);
const cli = path.join(root, 'dist', 'cli', 'main.js');

function exec(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile(command, args, { cwd, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      error ? reject(new Error(`${command} ${args.join(' ')}: ${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

/** A copy of the fixture as a project of its own: mcp-reflect is the build in dist/, the rest the repository's node_modules. */
function project(scratch: string, name: string): string {
  const dir = path.join(scratch, name);
  cpSync(fixture, dir, { recursive: true });
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  const config = path.join(dir, 'tsconfig.json');
  writeFileSync(config, readFileSync(config, 'utf8').replace('../../../dist/index.d.ts', path.join(root, 'dist', 'index.d.ts')));
  return dir;
}

/** `npx esbuild <entry> --bundle --platform=node --format=cjs --outfile=…` (docs/runtimes.md), mcp-reflect taken from dist/. */
async function bundle(dir: string, entry: string, ...extra: string[]): Promise<string> {
  const out = path.join(dir, `${path.basename(entry).replace(/\.[jt]s$/, '')}${extra.join('')}.bundle.cjs`);
  const args = [entry, '--bundle', '--platform=node', '--format=cjs', ...extra, `--outfile=${out}`, `--alias:mcp-reflect=${path.join(root, 'dist', 'index.js')}`, '--log-level=warning'];
  await exec(bin('esbuild'), args, dir);
  return out;
}

/** The signature of `lookup` as the bundle has it. */
const bundledSignature = (file: string) => /lookup\(([^()]*times = 1)\)\s*\{/.exec(readFileSync(file, 'utf8'))?.[1];

async function connect(file: string, dir: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [file], cwd: dir, stderr: 'pipe', env: { PATH: process.env.PATH ?? '' } });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'renamed-bundle-spec', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

async function expectServesLookup(client: Client): Promise<void> {
  const { tools } = await client.listTools();
  expect(tools.map((t) => t.name)).toEqual(['lookup']);
  expect(tools[0]!.inputSchema).toMatchObject({
    properties: { url: { type: 'string' }, date: { type: 'string' }, country: { type: 'string' }, times: { type: 'number', default: 1 } },
    required: ['url', 'date', 'country'],
  });
  expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).toEqual(['url', 'date', 'country', 'times']);
  const result = await client.callTool({ name: 'lookup', arguments: { url: 'Lyon', date: '2027-05-01', country: 'FR', times: 2 } });
  expect(result.content).toEqual([{ type: 'text', text: 'Lyon (FR, 2026-01-01, https://places.example) 2027-05-01 FR x2' }]);
}

jest.setTimeout(180_000);

describe('a bundle in which esbuild renamed parameters (url → url2, date → date4)', () => {
  let scratch: string;
  let dir: string;
  beforeAll(async () => {
    scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-renamed-'));
    dir = project(scratch, 'app');
    await exec(process.execPath, [cli, 'generate', '--quiet'], dir); // src/mcp-metadata.ts
    await exec(bin('tsc'), ['-p', 'tsconfig.json'], dir); // dist/
  });
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('tsc output with the generated metadata: serves the names written in the sources, and calls', async () => {
    const file = await bundle(dir, 'dist/main.js');
    expect(bundledSignature(file)).toMatch(/^url\d+, date\d+, country\d+, times = 1$/); // the renaming this spec is about
    const { client, stderr } = await connect(file, dir);
    try {
      await expectServesLookup(client);
      expect(stderr()).not.toMatch(/renamed/);
    } finally {
      await client.close();
    }
  });

  it('the TypeScript sources bundled directly (no design:paramtypes), with the generated metadata, as for Bun and Deno', async () => {
    const file = await bundle(dir, 'src/main.ts');
    expect(bundledSignature(file)).toMatch(/^url\d+, date\d+, country\d+, times = 1$/);
    const { client } = await connect(file, dir);
    try {
      await expectServesLookup(client);
    } finally {
      await client.close();
    }
  });

  it('minified too: every name is the file\'s', async () => {
    const file = await bundle(dir, 'dist/main.js', '--minify');
    // The minifier's names (`lookup(e,t,r,n=1){`), none of them the written one.
    expect(/lookup\(([\w$]+),([\w$]+),([\w$]+),[\w$]+=1\)\{/.exec(readFileSync(file, 'utf8'))?.slice(1).some((name) => ['url', 'date', 'country'].includes(name))).toBe(false);
    const { client } = await connect(file, dir);
    try {
      await expectServesLookup(client);
    } finally {
      await client.close();
    }
  });

  it('without generated metadata the renamed names are served, and the bootstrap warns naming each and the fix', async () => {
    const file = await bundle(dir, 'dist/main-without-metadata.js');
    const [url, date, country] = bundledSignature(file)!.split(', ');
    const { client, stderr } = await connect(file, dir);
    try {
      const { tools } = await client.listTools();
      expect(Object.keys(tools[0]!.inputSchema.properties ?? {})).toEqual([url, date, country, 'times']);
      expect(stderr()).toContain(
        `LookupTools.lookup: parameter #0 is advertised as '${url}', a name read from the compiled code that looks renamed by a bundler ` +
          `(esbuild renames 'url' to 'url2' when a bundled module also declares 'url' at top level).\n` +
          `Fix: name it with @Param('url') (or @Param('${url}') if that is its name), or load the metadata \`npx mcp-reflect generate\` writes`,
      );
      expect(stderr()).toContain(`parameter #1 is advertised as '${date}'`);
      expect(stderr()).toContain(`parameter #2 is advertised as '${country}'`);
    } finally {
      await client.close();
    }
  });

  it('a signature that really changed since generating stops the bootstrap, saying what differs and a fix that works', async () => {
    const changed = project(scratch, 'changed');
    await exec(process.execPath, [cli, 'generate', '--quiet'], changed);
    // A parameter added after the file was generated, then built and bundled without generating again.
    const tools = path.join(changed, 'src', 'lookup.tools.ts');
    writeFileSync(tools, readFileSync(tools, 'utf8').replace('@Param() country: string,', '@Param() country: string, @Param() region: string,'));
    await exec(bin('tsc'), ['-p', 'tsconfig.json'], changed);
    const file = await bundle(changed, 'dist/main.js');
    const [url, date, country] = /lookup\(([^()]*times = 1)\)\s*\{/.exec(readFileSync(file, 'utf8'))![1]!.split(', ');
    expect([url, date, country]).not.toEqual(['url', 'date', 'country']);
    const failure = await exec(process.execPath, [file], changed).then(
      () => new Error('the bundle started'),
      (error: Error) => error,
    );
    expect(failure.message).toContain(
      `Cannot build tool 'lookup' (LookupTools.lookup): the generated metadata is stale. It was generated from src/lookup.tools.ts for ` +
        `lookup(url, date, country, times=), but the running method, lookup(${url}, ${date}, ${country}, region, times=) (names as compiled), differs: ` +
        `it has 5 parameters, expected 4; parameter #3 'times' is a parameter without a default, expected a parameter with a default.\n` +
        'Fix: run `npx mcp-reflect generate`, then build (and bundle) again, so the file and the running code come from the same sources',
    );
    expect(failure.message).not.toContain(`${url}, ${date}, ${country}, times=)`); // the renaming alone is no difference
  });
});
