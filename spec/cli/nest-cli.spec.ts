import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { nest12Copy, nest12CopyIsCurrent, root } from '../support/installed-tools';
import { freePort } from '../support/free-port';
import { waitFor } from '../support/waiting';

/**
 * The built CLI (the project's own `npx mcp-reflect`: node_modules/mcp-reflect/dist/cli/main.js) on a Nest
 * application, whose root module is Nest's @Module() importing McpModule.forRoot() of 'mcp-reflect/nest': on
 * Nest 11 (the root's dev dependencies, this repository as mcp-reflect) and on Nest 12 (ESM only: tools/nest12,
 * where mcp-reflect is a copy of dist/ that resolves Nest 12). The project is TypeScript with the tsconfig of
 * docs/setup.md, run through its @swc/core as the CLI does. inspect, call, validators and dev see the tools
 * Nest provides (a Nest-injected service), with the types `mcp-reflect generate` wrote (a literal union that
 * reflection cannot see), and stdout carries only the command's output (no Nest log line).
 */

const stores = {
  11: { modules: path.join(root, 'node_modules'), mcpReflect: root },
  12: { modules: path.join(root, 'tools', 'nest12', 'node_modules'), mcpReflect: nest12Copy },
} as const;

const linked = ['@nestjs/common', '@nestjs/core', 'reflect-metadata', 'rxjs'];

const childEnv = {
  ...(Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(JEST_|npm_)/.test(key) && !['NODE_OPTIONS', 'FORCE_COLOR'].includes(key))) as Record<string, string>),
  NO_COLOR: '1',
};

const servicesSource = (answer: string) => `import { Injectable } from '@nestjs/common';

@Injectable()
export class Forecasts {
  of(city: string, days: number): string {
    return \`${answer} \${city} for \${days} days\`;
  }
}
`;

const toolsSource = `import { Injectable } from '@nestjs/common';
import { Param, Tool } from 'mcp-reflect';
import { Forecasts } from './forecasts.js';

@Injectable()
export class WeatherTools {
  constructor(private readonly forecasts: Forecasts) {}

  @Tool({ description: 'The forecast of a city' })
  forecast(@Param('city') city: 'Paris' | 'Oslo', @Param('days') days = 3): string {
    return this.forecasts.of(city, days);
  }
}
`;

const moduleSource = `import { Logger, Module, type OnApplicationBootstrap } from '@nestjs/common';
import { McpModule } from 'mcp-reflect/nest';
import { Forecasts } from './forecasts.js';
import { WeatherTools } from './weather.tools.js';

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })],
  providers: [Forecasts, WeatherTools],
})
export class AppModule implements OnApplicationBootstrap {
  onApplicationBootstrap(): void {
    new Logger('AppModule').log('the weather is up'); // Nest's log lines never reach the CLI's stdout
  }
}
`;

function documentedTsconfig(): string {
  const setup = readFileSync(path.join(root, 'docs', 'setup.md'), 'utf8');
  const block = /<!-- file: tsconfig\.json -->\n```json\n([\s\S]*?)\n```/.exec(setup);
  if (!block) throw new Error('docs/setup.md gives no tsconfig.json (<!-- file: tsconfig.json --> before a json block)');
  return `${block[1]}\n`;
}

/** A CommonJS Nest project in `dir`, its node_modules linking Nest of `nest`, its mcp-reflect, @swc/core and TypeScript 7 (for generate). */
function makeProject(nest: 11 | 12, dir: string): void {
  const store = stores[nest];
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '@nestjs'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '@swc'), { recursive: true });
  mkdirSync(path.join(dir, 'node_modules', '@types'), { recursive: true });
  for (const name of linked) symlinkSync(realpathSync(path.join(store.modules, name)), path.join(dir, 'node_modules', name));
  symlinkSync(realpathSync(store.mcpReflect), path.join(dir, 'node_modules', 'mcp-reflect'));
  symlinkSync(realpathSync(path.join(root, 'node_modules', '@swc', 'core')), path.join(dir, 'node_modules', '@swc', 'core'));
  symlinkSync(realpathSync(path.join(root, 'node_modules', 'typescript')), path.join(dir, 'node_modules', 'typescript'));
  symlinkSync(realpathSync(path.join(root, 'node_modules', '@types', 'node')), path.join(dir, 'node_modules', '@types', 'node'));
  writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify({ name: `nest${nest}-cli`, version: '1.0.0', private: true, type: 'commonjs' }, null, 2)}\n`);
  writeFileSync(path.join(dir, 'tsconfig.json'), documentedTsconfig());
  writeFileSync(path.join(dir, 'src', 'forecasts.ts'), servicesSource('Sunny in'));
  writeFileSync(path.join(dir, 'src', 'weather.tools.ts'), toolsSource);
  writeFileSync(path.join(dir, 'src', 'app.module.ts'), moduleSource);
  writeFileSync(path.join(dir, 'src', 'plain.ts'), 'export class NotAModule {}\nexport const answer = 42;\n');
  writeFileSync(path.join(dir, 'src', 'bare.module.ts'), "import { Module } from '@nestjs/common';\nimport { Forecasts } from './forecasts.js';\n\n@Module({ providers: [Forecasts] })\nexport class BareModule {}\n");
}

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe.each([11, 12] as const)('the CLI on a Nest %i application', (nest) => {
  let dir: string;
  let cli: string;
  const run = (args: readonly string[]) =>
    new Promise<Run>((resolve) =>
      execFile(process.execPath, [cli, ...args], { cwd: dir, env: childEnv, encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      ),
    );

  beforeAll(async () => {
    if (nest === 12 && !nest12CopyIsCurrent()) throw new Error(`${nest12Copy} is not a copy of dist/: run the specs through jest (spec/support/global-setup.js makes it) or npm install --prefix tools/nest12 --install-links --no-save`);
    dir = realpathSync(mkdtempSync(path.join(tmpdir(), `mcp-reflect-nest${nest}-cli-`)));
    makeProject(nest, dir);
    cli = path.join(dir, 'node_modules', 'mcp-reflect', 'dist', 'cli', 'main.js');
    const generated = await run(['generate', '--quiet']);
    // TypeScript 7's API closes its compiler process with a kill (typescript/dist/api/syncChannel.js), which now and
    // then prints Go's "context canceled" on the stderr it inherits: TypeScript's line, not ours, seen under load.
    expect({ ...generated, stderr: generated.stderr.replace(/^context canceled\n/m, '') }).toMatchObject({ code: 0, stderr: '' });
    expect(existsSync(path.join(dir, 'src', 'mcp-metadata.ts'))).toBe(true);
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('inspect lists the tools of the Nest module, with the generated types, and only them on stdout', async () => {
    const json = await run(['inspect', 'src/app.module.ts', '--json']);
    expect(json.stderr).not.toMatch(/ERROR|Cannot/);
    expect(json.code).toBe(0);
    const catalogue = JSON.parse(json.stdout) as { tools: { name: string; inputSchema: { properties: Record<string, unknown> } }[] };
    expect(catalogue.tools.map((t) => t.name)).toEqual(['forecast']);
    // The literal union comes from src/mcp-metadata.ts: the CLI handed it to McpService inside Nest.
    expect(catalogue.tools[0]!.inputSchema.properties.city).toMatchObject({ enum: ['Paris', 'Oslo'] });
    expect(catalogue.tools[0]!.inputSchema.properties.days).toMatchObject({ type: 'number', default: 3 });

    const text = await run(['inspect', 'src/app.module.ts']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('forecast - The forecast of a city');
    expect(text.stdout).toContain('from:   WeatherTools.forecast');
    expect(text.stdout).toContain('Types: generated by mcp-reflect generate, from src/mcp-metadata.ts');
    expect(text.stdout).not.toContain('[Nest]');
    expect(text.stdout).not.toContain('the weather is up');
  });

  it('call runs the tool through Nest (its injected service)', async () => {
    const called = await run(['call', 'src/app.module.ts', 'forecast', '--args', '{"city":"Oslo"}']);
    expect(called).toMatchObject({ code: 0, stdout: 'Sunny in Oslo for 3 days\n' });
    const refused = await run(['call', 'src/app.module.ts', 'forecast', '--args', '{"city":"Rome"}']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/city/);
  });

  it('validators writes the validators the Nest application compiles, and --check finds them current', async () => {
    const written = await run(['validators', 'src/app.module.ts', '--out', 'src/mcp-validators.js']);
    expect(written.stderr).toBe('');
    expect(written.code).toBe(0);
    const count = Number(/\((\d+) validators\)/.exec(written.stdout)?.[1]);
    expect(count).toBeGreaterThan(0);
    const code = readFileSync(path.join(dir, 'src', 'mcp-validators.js'), 'utf8');
    expect(code).toContain('"Oslo"'); // the generated types' schema, validated ahead of time
    expect(await run(['validators', 'src/app.module.ts', '--out', 'src/mcp-validators.js', '--check'])).toMatchObject({ code: 0 });
  });

  it('refuses an entry with neither kind of root module, naming both and what it exports, a Nest module without McpModule, and worker on a Nest module', async () => {
    const refused = await run(['inspect', 'src/plain.ts']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('none of its exports (NotAModule, answer)');
    expect(refused.stderr).toContain("@Module() of 'mcp-reflect'");
    expect(refused.stderr).toContain("@Module() of '@nestjs/common' importing McpModule.forRoot() of 'mcp-reflect/nest'");

    const bare = await run(['inspect', 'src/bare.module.ts']);
    expect(bare.code).toBe(1);
    expect(bare.stderr).toContain("Cannot run the MCP server of the Nest module BareModule: it serves no MCP server (it does not import McpModule.forRoot() of 'mcp-reflect/nest'");
    expect(bare.stderr).toContain("Fix: import McpModule.forRoot({ name, version }) from 'mcp-reflect/nest' in BareModule.");

    // worker runs standalone applications: a Nest one runs its queue's worker itself.
    const worker = await run(['worker', 'src/app.module.ts']);
    expect(worker.code).toBe(1);
    expect(worker.stderr).toContain('Cannot run AppModule as a worker: it is a Nest module');
  });

  it('dev serves the Nest application over HTTP and restarts it when a file changes', async () => {
    const port = await freePort();
    let output = '';
    const dev: ChildProcess = spawn(process.execPath, [cli, 'dev', 'src/app.module.ts', '--port', String(port)], { cwd: dir, env: childEnv });
    dev.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    let stdout = '';
    dev.stdout!.on('data', (chunk: Buffer) => void (stdout += chunk.toString()));
    const served = (count: number) => waitFor(() => (output.match(/serving .* at http:\S+/g) ?? []).length >= count || undefined, { what: `start ${count} of dev:\n${output}`, timeout: 45_000 });
    const client = new Client({ name: 'nest-cli-spec', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    try {
      await served(1);
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      const forecast = async () => ((await client.callTool({ name: 'forecast', arguments: { city: 'Paris', days: 2 } })).content as { text: string }[])[0]!.text;
      expect(await forecast()).toBe('Sunny in Paris for 2 days');
      writeFileSync(path.join(dir, 'src', 'forecasts.ts'), servicesSource('Rain in'));
      await served(2);
      expect(output).toContain('forecasts.ts changed: restarting');
      expect(await forecast()).toBe('Rain in Paris for 2 days');
      expect(stdout).toBe(''); // no Nest log line
    } finally {
      await client.close().catch(() => undefined);
      const exited = new Promise<number | null>((resolve) => (dev.exitCode !== null ? resolve(dev.exitCode) : dev.once('exit', (code) => resolve(code))));
      dev.kill('SIGINT');
      const timer = setTimeout(() => dev.kill('SIGKILL'), 10_000);
      expect(await exited).toBe(0);
      clearTimeout(timer);
    }
  }, 120_000);
});
