/**
 * `mcp-reflect generate` on a 200-tool project (20 classes of 10 tools, each with a DTO), and what loading its
 * output costs at bootstrap: McpFactory.create with the generated metadata against the same application
 * without it, alternating A/B in fresh processes, medians of 5 (2 with --quick).
 *
 *   npm run bench:generate            full run, writes bench/results/generate.json
 *   npm run bench:generate -- --quick a short smoke run
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const quick = process.argv.includes('--quick');
const REPS = quick ? 2 : 9;
const root = path.resolve(__dirname, '..');
const CLASSES = 20;
const TOOLS_PER_CLASS = 10;

/**
 * `rich`: DTOs with properties only the generated types reveal (an interface array, a Record) and JSDoc, as a
 * real project has; otherwise every schema is the same with and without the generated file, so the two
 * bootstraps differ only by what loading it costs.
 */
function writeProject(dir: string, rich: boolean): void {
  mkdirSync(path.join(dir, 'src'), { recursive: true });
  writeFileSync(
    path.join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, experimentalDecorators: true,
        emitDecoratorMetadata: true, useDefineForClassFields: false, skipLibCheck: true, types: ['node'],
        paths: { 'mcp-reflect': ['../../../lib/index.ts'] },
      },
      include: ['src'],
    }),
  );
  const imports: string[] = [];
  const providers: string[] = [];
  for (let c = 0; c < CLASSES; c++) {
    const doc = (t: number) => (rich ? `\n  /**\n   * Tool ${c}.${t}.\n   * @param mode how\n   */` : '');
    const tools = Array.from({ length: TOOLS_PER_CLASS }, (_, t) => `${doc(t)}
  @Tool()
  tool_${c}_${t}(@Param() name: string, ${rich ? "@Param() mode: 'a' | 'b' | 'c'" : "@Param('mode', { enum: ['a', 'b', 'c'] }) mode: 'a' | 'b' | 'c'"}, @Param() order: Order${c}, @Param() limit: number = 10, @Param('tags', { type: [String], optional: true }) tags?: string[]): string {
    return name + mode + order.labels.length + limit + (tags?.length ?? 0);
  }`).join('\n');
    writeFileSync(
      path.join(dir, 'src', `tools${c}.ts`),
      `import { IsInt, IsString, Min } from 'class-validator';
import { Injectable, Param, Tool } from 'mcp-reflect';

export interface Item${c} { /** sku */ sku: string; quantity: number; note?: string | null }

export class Order${c} {
  @IsString() customer!: string;
  @IsInt() @Min(1) priority!: number;
  @IsString({ each: true }) labels: string[] = [];${rich ? `\n  items?: Item${c}[];\n  meta?: Record<string, string>;` : ''}
}

@Injectable()
export class Tools${c} {${tools}
}
`,
    );
    imports.push(`import { Tools${c} } from './tools${c}';`);
    providers.push(`Tools${c}`);
  }
  writeFileSync(
    path.join(dir, 'src', 'app.module.ts'),
    `import { McpModule, Module } from 'mcp-reflect';\n${imports.join('\n')}\n\n@Module({ imports: [McpModule.forRoot({ name: 'bench', version: '1.0.0' })], providers: [${providers.join(', ')}] })\nexport class AppModule {}\n`,
  );
  writeFileSync(
    path.join(dir, 'bootstrap.ts'),
    `import 'reflect-metadata';
import { performance } from 'node:perf_hooks';
import { McpFactory } from 'mcp-reflect';
import { AppModule } from './src/app.module';
import { metadata } from './src/mcp-metadata';

async function main(): Promise<void> {
  const withTypes = process.argv.includes('--with-metadata');
  const started = performance.now();
  const app = await McpFactory.create(AppModule, withTypes ? { metadata } : {});
  const ms = performance.now() - started;
  await app.close();
  process.stdout.write(String(ms));
}
void main();
`,
  );
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const node = (args: string[]) => execFileSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });

interface Measured {
  generateMs: number;
  withoutMs: number;
  withMs: number;
}

function measure(rich: boolean): Measured {
  const dir = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-bench-generate-'));
  try {
    writeProject(dir, rich);
    const cli = ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'generate', '--project', path.join(dir, 'tsconfig.json'), '--quiet'];
    const generate: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const started = Date.now();
      node(cli);
      generate.push(Date.now() - started);
    }
    const script = ['-r', './spec/support/register.js', path.join(dir, 'bootstrap.ts')];
    const without: number[] = [];
    const withTypes: number[] = [];
    for (let i = 0; i < REPS; i++) {
      for (const typed of i % 2 === 0 ? [false, true] : [true, false]) (typed ? withTypes : without).push(Number(node(typed ? [...script, '--with-metadata'] : script)));
    }
    return { generateMs: median(generate), withoutMs: median(without), withMs: median(withTypes) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function main(): void {
  // The process alone (node, swc compiling the CLI): what of the generate time is not the generator's.
  const help: number[] = [];
  for (let i = 0; i < REPS; i++) {
    const started = Date.now();
    node(['-r', './spec/support/register.js', 'lib/cli/main.ts', 'generate', '--help']);
    help.push(Date.now() - started);
  }
  const rich = measure(true);
  const same = measure(false);
  const round = (n: number) => Number(n.toFixed(1));
  const result = {
    date: new Date().toISOString(),
    node: process.version,
    tools: CLASSES * TOOLS_PER_CLASS,
    reps: REPS,
    generateMs: rich.generateMs,
    processOnlyMs: median(help),
    sameSchemas: { bootstrapWithoutMetadataMs: round(same.withoutMs), bootstrapWithMetadataMs: round(same.withMs), ratio: Number((same.withMs / same.withoutMs).toFixed(2)) },
    richerSchemas: { bootstrapWithoutMetadataMs: round(rich.withoutMs), bootstrapWithMetadataMs: round(rich.withMs), ratio: Number((rich.withMs / rich.withoutMs).toFixed(2)) },
  };
  console.log(JSON.stringify(result, null, 2));
  if (!quick) writeFileSync(path.join(root, 'bench', 'results', 'generate.json'), `${JSON.stringify(result, null, 2)}\n`);
}

main();
