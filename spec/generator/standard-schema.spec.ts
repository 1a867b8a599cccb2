import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GeneratedMetadata } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const root = path.resolve(__dirname, '..', '..');

/** A project whose tools take zod schemas (issue 42): the generator must leave their parameters to the schema. */
const TOOLS = `import { Ctx, Injectable, McpModule, Module, Param, Tool, type Context } from 'mcp-reflect';
import * as z from 'zod';

const Forecast = z.object({ city: z.string().min(2), days: z.number().int().min(1).max(7).default(3) });

@Injectable()
export class ZodTools {
  @Tool({ description: 'The forecast for a city', parameters: Forecast })
  forecast(args: z.infer<typeof Forecast>, @Ctx() ctx: Context): string {
    return \`\${args.days} sunny days in \${args.city}\${ctx ? '' : '?'}\`;
  }

  @Tool()
  book(@Param('city') city: string, @Param('nights', { schema: z.number().int().min(1).default(2) }) nights: number): string {
    return \`\${nights} nights in \${city}\`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'zod', version: '1.0.0' })], providers: [ZodTools] })
export class ZodModule {}
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

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', './spec/support/register.js', 'lib/cli/main.ts', ...args],
      { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

jest.setTimeout(180_000);

describe('mcp-reflect generate leaves Standard Schema parameters to their schema', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-standard-schema-'));
    mkdirSync(path.join(dir, 'src'));
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    writeFileSync(path.join(dir, 'src', 'tools.ts'), TOOLS);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('advertises the same schemas and parses the same arguments with and without the generated module', async () => {
    const run = await cli('generate', '--project', path.join(dir, 'tsconfig.json'));
    expect(run).toMatchObject({ code: 0 });
    const { ZodModule } = require(path.join(dir, 'src', 'tools.ts')) as { ZodModule: Function };
    const { metadata } = require(path.join(dir, 'src', 'mcp-metadata.ts')) as { metadata: GeneratedMetadata };
    const expected = {
      forecast: {
        type: 'object',
        properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1, maximum: 7, default: 3 } },
        required: ['city'],
      },
      book: {
        type: 'object',
        properties: { city: { type: 'string' }, nights: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER, default: 2 } },
        required: ['city'],
        additionalProperties: false,
      },
    };
    for (const options of [{}, { metadata }]) {
      const client = await createTestClient(ZodModule, options);
      try {
        const schemas = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
        expect(schemas).toEqual(expected);
        expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }))).toBe('3 sunny days in Oslo');
        expect(text(await client.callTool({ name: 'book', arguments: { city: 'Oslo' } }))).toBe('2 nights in Oslo');
        expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'O' } }))).toBe(
          'Invalid arguments for tool forecast: city: Too small: expected string to have >=2 characters',
        );
      } finally {
        await client.close();
      }
    }
  });

  it('mcp-reflect inspect shows the schemas an SDK client lists', async () => {
    const { ZodModule } = require(path.join(dir, 'src', 'tools.ts')) as { ZodModule: Function };
    const result = await cli('inspect', path.join(dir, 'src', 'tools.ts'), '--json');
    expect(result).toMatchObject({ code: 0 });
    const client = await createTestClient(ZodModule);
    try {
      expect(JSON.parse(result.stdout).tools).toEqual((await client.listTools()).tools);
      expect(JSON.parse(result.stdout).tools.find((t: { name: string }) => t.name === 'forecast').inputSchema.properties.days).toEqual({ type: 'integer', minimum: 1, maximum: 7, default: 3 });
    } finally {
      await client.close();
    }
  });
});
