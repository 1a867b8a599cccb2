import { ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { extractExamplesOf } from '../docs/doc-examples';

const root = path.resolve(__dirname, '..', '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');

/**
 * docs/nestjs.md's first sample, verbatim (`@Param('days', { optional: true }) days = 3`), compiled by tsc as a
 * Nest user compiles it (tsc reflects the un-annotated `days` as Object) and run against the built package
 * (`mcp-reflect` resolves to dist/ by the package's own name), driven by the SDK's client over HTTP.
 */
const MAIN = `import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';

async function main(): Promise<void> {
  // One root per process: a class with tools that no module of the application provides is refused.
  const root: new () => unknown = process.argv[2] === 'broken' ? require('./broken.module').BrokenModule : require('./app.module').AppModule;
  const app = await NestFactory.create(root, { logger: false, abortOnError: false });
  await app.listen(0, '127.0.0.1');
  process.stdout.write(JSON.stringify({ url: (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1') }) + '\\n');
}
main().catch((error: Error & { code?: string }) => {
  process.stdout.write(JSON.stringify({ code: error.code, message: error.message }) + '\\n');
  process.exit(1);
});
`;

/** The same tool with a default that is no literal: still refused, with the message of an unreflectable type. */
const BROKEN = `import { Injectable, Module } from '@nestjs/common';
import { Param, Tool } from 'mcp-reflect';
import { McpModule } from 'mcp-reflect/nest';

const later = (): number => 3;

@Injectable()
export class BrokenTools {
  @Tool()
  forecast(@Param('city') city: string, @Param('days') days = later()): string {
    return \`\${days} days in \${city}\`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'broken', version: '1.0.0' })], providers: [BrokenTools] })
export class BrokenModule {}
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
  },
  include: ['*.ts'],
};

jest.setTimeout(180_000);

describe("docs/nestjs.md's first sample (days = 3), compiled by tsc", () => {
  let dir: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    // Inside the repository, so `mcp-reflect` resolves to the built package by its own name, as in a user's project.
    dir = mkdtempSync(path.join(root, 'spec', 'fixtures', 'tmp-nest-docs-'));
    const examples = extractExamplesOf(root, 'docs/nestjs.md');
    for (const file of ['weather.tools.ts', 'app.module.ts']) {
      const example = examples.find((e) => e.file === file);
      if (!example) throw new Error(`docs/nestjs.md has no block marked // ${file}`);
      writeFileSync(path.join(dir, file), example.code);
    }
    writeFileSync(path.join(dir, 'main.ts'), MAIN);
    writeFileSync(path.join(dir, 'broken.module.ts'), BROKEN);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG, null, 2));
    const compiled = await new Promise<{ code: number; out: string }>((resolve) =>
      execFile(tsc, ['-p', path.join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' }, (error, stdout, stderr) =>
        resolve({ code: error ? 1 : 0, out: stdout + stderr }),
      ),
    );
    if (compiled.code !== 0) throw new Error(`tsc failed on the docs' sample:\n${compiled.out}`);
  });
  afterAll(() => {
    for (const child of children) child.kill();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Starts main.js and resolves with the first line it prints (the URL, or the bootstrap error). */
  function start(args: string[] = []): Promise<{ url?: string; code?: string; message?: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [path.join(dir, 'main.js'), ...args], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NODE_OPTIONS: '' } });
      children.push(child);
      let out = '';
      let err = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const line = out.split('\n')[0];
        if (out.includes('\n')) resolve(JSON.parse(line));
      });
      child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
      child.on('exit', (code) => {
        if (!out.includes('\n')) reject(new Error(`main.js exited (${code}) without a line:\n${err}`));
      });
    });
  }

  it('starts, advertises days as a number with its default, and runs with and without it', async () => {
    const started = await start();
    expect(started).toEqual({ url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/) });
    const client = new Client({ name: 'nest-docs-sample', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${started.url}/mcp`)));
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => [t.name, t.description, t.inputSchema])).toEqual([
        [
          'forecast',
          'The forecast for a city',
          {
            type: 'object',
            properties: { city: { type: 'string' }, days: { type: 'number', default: 3 } },
            required: ['city'],
            additionalProperties: false,
          },
        ],
      ]);
      const text = (result: unknown) => (result as { content: { text: string }[] }).content[0].text;
      expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }))).toBe('3 sunny days in Oslo (units: metric)');
      expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 5 } }))).toBe('5 sunny days in Oslo (units: metric)');
      const wrong = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 'five' } });
      expect(wrong.isError).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('still refuses a default that is no literal (reflected as Object), with the reason and the fix', async () => {
    const failed = await start(['broken']);
    expect(failed.code).toBe('UNREFLECTABLE_TYPE');
    expect(failed.message).toBe(
      `Cannot build the input schema of tool 'forecast' (BrokenTools.forecast): the type of parameter #1 'days' was reflected as Object.\n` +
        `Cause: TypeScript erases interfaces, unions, type aliases, 'any', mixed enums and type-only imports (import type) ` +
        `to Object at runtime, so there is nothing to build a schema from.\n` +
        `Fix: state the type with @Param('days', { type: ... }) (e.g. [String], [ItemDto], 'integer', a DTO class), ` +
        `the allowed values with { enum: MyEnum }, or a JSON Schema with { schema: { ... } }.`,
    );
  });
});
