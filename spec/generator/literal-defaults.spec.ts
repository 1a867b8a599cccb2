import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GeneratedMetadata } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const root = path.resolve(__dirname, '..', '..');

/** A project whose parameters are typed by their literal defaults alone (docs/tools.md, issue 39 item 6). */
const TOOLS = `import { Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';

@Injectable()
export class DefaultTools {
  @Tool({ description: 'The forecast for a city' })
  forecast(@Param('city') city: string, @Param('days', { optional: true }) days = 3): string {
    return \`\${days} sunny days in \${city}\`;
  }

  @Tool()
  greet(@Param() name = 'World', @Param() verbose = false): string {
    return verbose ? \`Hello, dear \${name}\` : \`Hello \${name}\`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'defaults', version: '1.0.0' })], providers: [DefaultTools] })
export class DefaultsModule {}
`;

const TSCONFIG = {
  compilerOptions: {
    target: 'es2022',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    strict: true,
    experimentalDecorators: true,
    emitDecoratorMetadata: true,
    skipLibCheck: true,
    types: ['node'],
    paths: { 'mcp-reflect': ['../../../lib/index.ts'] },
  },
  include: ['src'],
};

function generate(config: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'generate', '--project', config],
      { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

jest.setTimeout(180_000);

describe('mcp-reflect generate agrees with the running class on literal defaults (days = 3)', () => {
  let dir: string;
  beforeAll(() => {
    // Beside the other fixtures, so the tsconfig's paths reach lib/.
    dir = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-literal-defaults-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(dir, 'src', 'tools.ts'), TOOLS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('advertises the same schemas with and without the generated module, and applies the defaults', async () => {
    const run = await generate(path.join(dir, 'tsconfig.json'));
    expect(run).toMatchObject({ code: 0 });
    // Loaded after generating: the generated module imports the very classes the application serves.
    const { DefaultsModule } = require(path.join(dir, 'src', 'tools.ts')) as { DefaultsModule: Function };
    const { metadata } = require(path.join(dir, 'src', 'mcp-metadata.ts')) as { metadata: GeneratedMetadata };

    const expected = {
      forecast: {
        type: 'object',
        properties: { city: { type: 'string' }, days: { type: 'number', default: 3 } },
        required: ['city'],
        additionalProperties: false,
      },
      greet: {
        type: 'object',
        properties: { name: { type: 'string', default: 'World' }, verbose: { type: 'boolean', default: false } },
        additionalProperties: false,
      },
    };
    for (const options of [{}, { metadata }]) {
      const client = await createTestClient(DefaultsModule, options);
      try {
        const schemas = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
        expect(schemas).toEqual(expected);
        expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }))).toBe('3 sunny days in Oslo');
        expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 7 } }))).toBe('7 sunny days in Oslo');
        expect(text(await client.callTool({ name: 'greet', arguments: {} }))).toBe('Hello World');
        expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', verbose: true } }))).toBe('Hello, dear Ada');
        expect((await client.callTool({ name: 'greet', arguments: { verbose: 'yes' } })).isError).toBe(true);
      } finally {
        await client.close();
      }
    }
  });
});
