import { execFile, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { installedAsLocked, nest12Copy, nest12CopyIsCurrent, nest12LockDrift, root } from '../support/installed-tools';

/**
 * mcp-reflect/nest with the real Nest 11 (CommonJS: the root's dev dependencies, with this repository linked as
 * mcp-reflect, its package.json and dist/) and the real Nest 12 (ESM only: tools/nest12, where mcp-reflect is
 * installed from dist/ as a copy, so that it resolves Nest 12), each in a CommonJS and in an ESM user project
 * compiled by TypeScript 7 with the tsconfig of docs/setup.md, booted in a process of its own on the Node of this
 * run (20, then 24 in .ci/run) and on Node 22 (tools/node22), and probed by the SDK client over the Nest
 * application's HTTP server (Express and Fastify, the endpoint a route, and on Fastify also ahead of it) and over stdio. A CommonJS project on Nest 12, and mcp-reflect's CommonJS build in
 * every Nest 12 project, load Nest with require() of ES modules (Node 20.19+, 22.12+).
 */

const nest12Modules = path.join(root, 'tools', 'nest12', 'node_modules');
const node22 = path.join(root, 'tools', 'node22', 'node_modules', '.bin', 'node');

/** Where a project of each Nest version gets its packages: Nest, and the mcp-reflect built against it. */
const stores = {
  11: { modules: path.join(root, 'node_modules'), mcpReflect: root },
  12: { modules: nest12Modules, mcpReflect: nest12Copy },
} as const;

const linked = ['@nestjs/common', '@nestjs/core', '@nestjs/platform-express', '@nestjs/platform-fastify', 'reflect-metadata', 'rxjs'];

/** The child processes see neither this jest worker nor the npm script running it. */
const childEnv = {
  ...(Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(JEST_|npm_)/.test(key) && !['NODE_OPTIONS', 'FORCE_COLOR'].includes(key))) as Record<string, string>),
  NO_COLOR: '1',
};

/** The tsconfig.json docs/setup.md gives (CommonJS and ESM alike: `"module": "nodenext"` follows `"type"`). */
function documentedTsconfig(): string {
  const setup = readFileSync(path.join(root, 'docs', 'setup.md'), 'utf8');
  const block = /<!-- file: tsconfig\.json -->\n```json\n([\s\S]*?)\n```/.exec(setup);
  if (!block) throw new Error('docs/setup.md gives no tsconfig.json (<!-- file: tsconfig.json --> before a json block)');
  return `${block[1]}\n`;
}

/** A provider with tools (its service injected by its reflected constructor type), and what the process runs on. */
const toolsSource = `import { Injectable, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Param, Tool } from 'mcp-reflect';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

@Injectable()
export class Adder {
  add(a: number, b: number): number {
    return a + b;
  }
}

@Injectable()
export class MathTools {
  constructor(private readonly adder: Adder, @Optional() private readonly adapterHost?: HttpAdapterHost) {}

  @Tool({ description: 'Adds two numbers' })
  add(@Param('a') a: number, @Param('b') b: number): string {
    return \`\${a} + \${b} = \${this.adder.add(a, b)}\`;
  }

  @Tool({ description: 'Where this server runs' })
  runtime(): string {
    // Resolved as this project and as mcp-reflect/nest resolve them (Nest 12's exports hide its package.json).
    const project = createRequire(path.resolve(process.argv[1]!));
    const library = createRequire(project.resolve('mcp-reflect/nest'));
    const folder = (from: NodeJS.Require, name: string) => path.dirname(realpathSync(from.resolve(name)));
    const version = (name: string) => JSON.parse(readFileSync(path.join(folder(project, name), 'package.json'), 'utf8')).version;
    return JSON.stringify({
      node: process.version,
      format: typeof require === 'function' ? 'commonjs' : 'module',
      platform: this.adapterHost?.httpAdapter?.getType() ?? 'none',
      nest: { common: version('@nestjs/common'), core: version('@nestjs/core'), platformExpress: version('@nestjs/platform-express') },
      nestOfProject: folder(project, '@nestjs/core'),
      nestOfMcpReflect: folder(library, '@nestjs/core'),
      mcpReflect: folder(project, 'mcp-reflect/package.json'),
    });
  }
}
`;

/** Over HTTP on port 0 (it prints its URL), or over stdio from an application context; it ends itself. */
const mainSource = `import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { Adder, MathTools } from './math.tools.js';

const stdio = process.argv.includes('--stdio');
const fastify = process.argv.includes('--fastify');
const mount = process.argv.includes('--mount-server') ? 'server' : 'route';

@Module({
  imports: [McpModule.forRoot({ name: 'nest-versions', version: '1.0.0', http: stdio ? false : { mount } })],
  providers: [Adder, MathTools],
})
class AppModule {}

async function main(): Promise<void> {
  setTimeout(() => process.exit(3), 60_000).unref(); // a process left behind ends itself
  if (stdio) {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: ['error'] });
    await context.get(McpService).listen({ transport: 'stdio' });
    console.error('ready on stdio');
    return;
  }
  // Keep-alive connections are closed with Nest, so that the process ends at once.
  const app = fastify
    ? await NestFactory.create(AppModule, new FastifyAdapter({ forceCloseConnections: true }), { logger: ['error'] })
    : await NestFactory.create(AppModule, { logger: ['error'], forceCloseConnections: true });
  await app.listen(0, '127.0.0.1');
  console.log(JSON.stringify({ url: \`\${await app.getUrl()}/mcp\` }));
  process.stdin.on('end', () => void app.close().then(() => process.exit(0)));
  process.stdin.resume();
}
main().catch((error) => {
  console.error(error);
  process.exit(1);
});
`;

type Format = 'CommonJS' | 'ESM';

interface Project {
  readonly nest: 11 | 12;
  readonly format: Format;
}

const projects: Project[] = [
  { nest: 11, format: 'CommonJS' },
  { nest: 11, format: 'ESM' },
  { nest: 12, format: 'CommonJS' },
  { nest: 12, format: 'ESM' },
];

function packageVersion(folder: string): string {
  return JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')).version;
}

/** Writes the project into `dir`, its node_modules linking the packages of its Nest version, and compiles it with tsc 7. */
async function makeProject({ nest, format }: Project, dir: string): Promise<void> {
  const store = stores[nest];
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '@nestjs'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '@types'), { recursive: true });
  for (const name of linked) symlinkSync(realpathSync(path.join(store.modules, name)), path.join(dir, 'node_modules', name));
  symlinkSync(realpathSync(store.mcpReflect), path.join(dir, 'node_modules', 'mcp-reflect'));
  symlinkSync(realpathSync(path.join(root, 'node_modules', '@types', 'node')), path.join(dir, 'node_modules', '@types', 'node'));
  const dependencies = Object.fromEntries([...linked, 'mcp-reflect'].map((name) => [name, packageVersion(path.join(dir, 'node_modules', name))]));
  const manifest = { name: `nest${nest}-${format.toLowerCase()}`, version: '1.0.0', private: true, type: format === 'ESM' ? 'module' : 'commonjs', dependencies };
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  writeFileSync(path.join(dir, 'tsconfig.json'), documentedTsconfig());
  writeFileSync(path.join(dir, 'src', 'math.tools.ts'), toolsSource);
  writeFileSync(path.join(dir, 'src', 'main.ts'), mainSource);
  try {
    await promisify(execFile)(path.join(root, 'node_modules', '.bin', 'tsc'), ['-p', '.'], { cwd: dir, env: childEnv });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`tsc failed in the Nest ${nest} ${format} project (${dir}):\n${stdout ?? ''}${stderr ?? ''}`);
  }
}

/** Starts the HTTP server of a project and gives its URL; stopping it ends its stdin, on which it closes Nest. */
async function startHttp(node: string, dir: string, args: readonly string[]): Promise<{ url: string; stop: () => Promise<number | null> }> {
  const child = spawn(node, ['dist/main.js', ...args], { cwd: dir, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => void (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
    const code = await exited;
    clearTimeout(timer);
    return code;
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL within 20 s:\n${stdout}${stderr}`)), 20_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').slice(0, -1).find((candidate) => candidate.startsWith('{')); // whole lines only
      if (line) {
        clearTimeout(timer);
        resolve((JSON.parse(line) as { url: string }).url);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`it exited (${code}) before serving:\n${stdout}${stderr}`));
    });
  }).catch(async (error: Error) => {
    await stop();
    throw new Error(`The server of ${dir} on ${node} did not start: ${error.message}`);
  });
  return { url, stop };
}

interface Runtime {
  node: string;
  format: string;
  platform: string;
  nest: { common: string; core: string; platformExpress: string };
  nestOfProject: string;
  nestOfMcpReflect: string;
  mcpReflect: string;
}

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';

/** tools/list and tools/call through the SDK client; what the process says it runs on. */
async function probe(client: Client): Promise<Runtime> {
  const { tools } = await client.listTools();
  expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'runtime']);
  const add = tools.find((tool) => tool.name === 'add')!;
  expect(add.description).toBe('Adds two numbers');
  expect(add.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false });
  expect((await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } })).content).toEqual([{ type: 'text', text: '2 + 3 = 5' }]);
  const refused = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
  expect(refused.isError).toBe(true);
  expect(text(refused)).toMatch(/^Invalid arguments for tool add: a: /);
  return JSON.parse(text(await client.callTool({ name: 'runtime', arguments: {} }))) as Runtime;
}

/** How the HTTP server is run: on each platform as a route (the default), and ahead of the framework. */
const servings = [
  { name: 'Express, the endpoint a route', platform: 'express', mount: 'route', args: [] },
  { name: 'Fastify, the endpoint a route', platform: 'fastify', mount: 'route', args: ['--fastify'] },
  { name: "Fastify, the endpoint ahead of it (mount: 'server')", platform: 'fastify', mount: 'server', args: ['--fastify', '--mount-server'] },
] as const;

const nodes = [
  { name: `the Node of this run (${process.version})`, binary: process.execPath },
  { name: 'Node 22 (tools/node22)', binary: node22 },
];

describe('mcp-reflect/nest on Nest 11 and Nest 12, in CommonJS and ESM projects, on the Node of this run and Node 22', () => {
  let dir: string;
  const built = new Map<Project, Promise<string>>();

  beforeAll(() => {
    // What global-setup.js installs: when it is missing, these fail naming it rather than skip.
    const missing = [
      nest12LockDrift(),
      installedAsLocked('nest12') ? undefined : 'tools/nest12 is not installed as its lockfile pins it: npm ci --prefix tools/nest12 --install-links',
      nest12CopyIsCurrent() ? undefined : `${path.relative(root, nest12Copy)} is not a copy of the current build (dist/): npm run build, then npm run test (global-setup.js copies it again)`,
      installedAsLocked('node22') && existsSync(node22) ? undefined : 'tools/node22 is not installed: npm ci --prefix tools/node22',
    ].filter(Boolean);
    if (missing.length > 0) throw new Error(`The Nest versions spec cannot run:\n- ${missing.join('\n- ')}`);
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-nest-versions-'));
    for (const project of projects) {
      const folder = path.join(dir, `nest${project.nest}-${project.format.toLowerCase()}`);
      const made = makeProject(project, folder).then(() => folder);
      made.catch(() => undefined); // awaited by the tests
      built.set(project, made);
    }
  });
  afterAll(() => dir && rmSync(dir, { recursive: true, force: true }));

  it('runs the real Nest 12 from tools/nest12 and the real Node 22 from tools/node22', () => {
    expect(packageVersion(path.join(nest12Modules, '@nestjs', 'core'))).toMatch(/^12\./);
    expect(JSON.parse(readFileSync(path.join(nest12Modules, '@nestjs', 'core', 'package.json'), 'utf8')).type).toBe('module');
    expect(packageVersion(path.join(stores[11].modules, '@nestjs', 'core'))).toMatch(/^11\./);
    expect(execFileSync(node22, ['--version'], { encoding: 'utf8' }).trim()).toMatch(/^v22\./);
  });

  describe.each(projects)('Nest $nest, $format user project', (project) => {
    const { nest, format } = project;
    const store = stores[nest];

    it('compiles with tsc 7 and the tsconfig of docs/setup.md, decorator metadata emitted', async () => {
      const folder = await built.get(project)!;
      const main = readFileSync(path.join(folder, 'dist', 'main.js'), 'utf8');
      expect(main).toMatch(format === 'ESM' ? /^import \{ McpModule, McpService \} from 'mcp-reflect\/nest';$/m : /require\("mcp-reflect\/nest"\)/);
      expect(readFileSync(path.join(folder, 'dist', 'math.tools.js'), 'utf8')).toMatch(/__metadata\("design:paramtypes", \[Adder, (core_1\.)?HttpAdapterHost\]\)/);
    }, 60_000);

    describe.each(nodes)('on $name', ({ binary }) => {
      const expectedRuntime = (): Runtime => ({
        node: binary === process.execPath ? process.version : expect.stringMatching(/^v22\./),
        format: format === 'ESM' ? 'module' : 'commonjs',
        nest: {
          common: packageVersion(path.join(store.modules, '@nestjs', 'common')),
          core: expect.stringMatching(new RegExp(`^${nest}\\.`)),
          platformExpress: packageVersion(path.join(store.modules, '@nestjs', 'platform-express')),
        },
        nestOfProject: realpathSync(path.join(store.modules, '@nestjs', 'core')),
        // One Nest in the process: the one mcp-reflect/nest loads is the project's.
        nestOfMcpReflect: realpathSync(path.join(store.modules, '@nestjs', 'core')),
        mcpReflect: realpathSync(store.mcpReflect),
      }) as Runtime;

      describe.each(servings)('$name', ({ platform, args }) => {
        it('serves over the Nest application\'s HTTP server (port 0), and closes with Nest', async () => {
          const folder = await built.get(project)!;
          const server = await startHttp(binary, folder, args);
          let runtime: Runtime;
          let exitCode: number | null;
          let malformed: { status: number; body: string };
          try {
            const client = new Client({ name: 'nest-versions-spec', version: '1.0.0' });
            await client.connect(new StreamableHTTPClientTransport(new URL(server.url)));
            try {
              runtime = await probe(client);
            } finally {
              await client.close();
            }
            // Who read the body: the endpoint, as a route too (the application's body parsers never read its bodies: issue 38, 9).
            const answer = await fetch(server.url, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{"jsonrpc":' });
            malformed = { status: answer.status, body: await answer.text() };
          } finally {
            exitCode = await server.stop();
          }
          expect(exitCode).toBe(0); // Nest closed on the end of stdin, the process ended itself
          expect(runtime).toEqual({ ...expectedRuntime(), platform });
          expect(packageVersion(path.join(store.modules, '@nestjs', 'core'))).toBe(runtime.nest.core);
          expect(malformed.status).toBe(400);
          expect(JSON.parse(malformed.body)).toMatchObject({ jsonrpc: '2.0', error: { code: -32700 } });
        }, 60_000);
      });

      it('serves over stdio from NestFactory.createApplicationContext()', async () => {
        const folder = await built.get(project)!;
        const transport = new StdioClientTransport({ command: binary, args: ['dist/main.js', '--stdio'], cwd: folder, env: childEnv, stderr: 'pipe' });
        let stderr = '';
        transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
        const client = new Client({ name: 'nest-versions-spec', version: '1.0.0' });
        let runtime: Runtime;
        try {
          await client.connect(transport).catch((error: Error) => {
            throw new Error(`The stdio server of ${folder} on ${binary} did not start: ${error.message}\n${stderr}`);
          });
          runtime = await probe(client);
        } finally {
          await client.close();
        }
        expect(runtime).toEqual({ ...expectedRuntime(), platform: 'none' });
        expect(stderr).toContain('ready on stdio');
      }, 60_000);
    });
  });
});
