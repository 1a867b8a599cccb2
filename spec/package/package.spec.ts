import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');

/**
 * The package as a user gets it: `npm pack`, install the tarball into an empty folder, then compile and
 * run a consumer that imports `mcp-reflect` and `mcp-reflect/testing` (types included).
 */
describe('the packed tarball', () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-pack-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('installs into an empty project and works from CommonJS, ESM and TypeScript', () => {
    const run = (cmd: string, args: string[], cwd: string) =>
      execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

    run(npm, ['pack', '--pack-destination', dir, '--silent'], root);
    const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
    expect(tarball).toMatch(/^mcp-reflect-\d+\.\d+\.\d+\.tgz$/);

    const app = path.join(dir, 'app');
    execFileSync('mkdir', ['-p', app]);
    writeFileSync(path.join(app, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '1.0.0' }));
    run(
      npm,
      ['install', '--no-audit', '--no-fund', '--prefer-offline', path.join(dir, tarball!),
        'class-validator@0.15.1', 'class-transformer@0.5.1', 'reflect-metadata@0.2.2', '@types/node@20'],
      app,
    );

    writeFileSync(
      path.join(app, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'es2022', module: 'nodenext', strict: true, experimentalDecorators: true,
          emitDecoratorMetadata: true, types: ['node'], outDir: 'out',
        },
        files: ['main.ts'],
      }),
    );
    writeFileSync(
      path.join(app, 'main.ts'),
      `import 'reflect-metadata';
import { IsInt, Min } from 'class-validator';
import { Args, Injectable, McpModule, Module, Param, Tool, type McpApplication } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

class Query { @IsInt() @Min(1) n!: number; }

@Injectable()
class Tools {
  @Tool({ description: 'Add' }) add(@Param() a: number, @Param() b: number): number { return a + b; }
  @Tool() twice(@Args() q: Query): number { return q instanceof Query ? q.n * 2 : -1; }
}

@Module({ imports: [McpModule.forRoot({ name: 'consumer', version: '1.0.0' })], providers: [Tools] })
class AppModule {}

async function main() {
  const client: TestClient = await createTestClient(AppModule);
  const app: McpApplication = client.app;
  const tools = (await client.listTools()).tools.map((t) => t.name).join(',');
  const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
  const twice = await client.callTool({ name: 'twice', arguments: { n: 21 } });
  console.log(JSON.stringify({ tools, sum: sum.content, twice: twice.content, size: app.tools.names().length }));
  await client.close();
}
main().catch((e) => { console.error(e); process.exit(1); });
`,
    );
    run(tsc, ['-p', '.'], app);
    const output = run(process.execPath, ['out/main.js'], app).trim();
    expect(JSON.parse(output)).toEqual({
      tools: 'add,twice',
      sum: [{ type: 'text', text: '5' }],
      twice: [{ type: 'text', text: '42' }],
      size: 2,
    });

    writeFileSync(
      path.join(app, 'esm.mjs'),
      `import { McpFactory, Tool } from 'mcp-reflect';\nimport { createTestClient } from 'mcp-reflect/testing';\n` +
        `console.log(typeof McpFactory.create, typeof Tool, typeof createTestClient);\n`,
    );
    expect(run(process.execPath, ['esm.mjs'], app).trim()).toBe('function function function');
  }, 240_000);
});
