import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { extractExamples, extractExamplesOf, type DocExample } from './doc-examples';

/**
 * Every `ts` block of docs/ that is marked as a complete example (first line `// file.ts`) is type-checked
 * with the repository's TypeScript, so the docs cannot drift from the code. The marked blocks of one page are
 * one project: they import each other by their file names (`./calculator.module`). They compile against this
 * repository's lib (`mcp-reflect` and `mcp-reflect/testing` mapped as in tsconfig.json), with the compiler
 * options getting-started.md gives users, in one tsc run.
 */
const root = path.resolve(__dirname, '..', '..');
const tsc = path.join(root, 'node_modules', '.bin', 'tsc');

/** What users are told to set (docs/getting-started.md#tsconfig), plus what a jest spec file needs. */
const COMPILER_OPTIONS = {
  target: 'es2022',
  module: 'nodenext',
  moduleResolution: 'nodenext',
  lib: ['es2023'],
  types: ['node', 'jest'],
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  skipLibCheck: true,
  noEmit: true,
  paths: {
    'mcp-reflect': [path.join(root, 'lib', 'index.ts')],
    'mcp-reflect/testing': [path.join(root, 'lib', 'testing', 'index.ts')],
    'mcp-reflect/nest': [path.join(root, 'lib', 'nest', 'index.ts')],
    // mcp-reflect/redis and the other entries of lib/entries, as jest.config.js maps them.
    ...Object.fromEntries(readdirSync(path.join(root, 'lib', 'entries')).map((file) => [`mcp-reflect/${path.basename(file, '.ts')}`, [path.join(root, 'lib', 'entries', file)]])),
  },
};

/** A page that exercises the failure report: one broken block, and one that imports a missing file. */
const SELF_TEST_DOC = 'docs/__self-test__.md';
const SELF_TEST = [
  '# Self test',
  '',
  '```ts',
  '// broken.ts',
  "import { Tool } from 'mcp-reflect';",
  'export class Broken {',
  '  @Tool({ nmae: 1 }) run(): number {',
  '    return 1;',
  '  }',
  '}',
  '```',
].join('\n');

interface Diagnostic {
  /** As tsc prints it: relative to the project folder for example files. */
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  readonly message: string;
}

interface Located {
  readonly example?: DocExample;
  /** `docs/x.md:LINE (file.ts:line:col) TSxxxx: message`, or tsc's own text for files outside the examples. */
  readonly text: string;
}

function docsPages(): string[] {
  return readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
}

function folderOf(doc: string): string {
  return path.basename(doc, '.md');
}

/** Writes each page's examples into a folder of its own; returns the example behind each written file. */
function writeProject(dir: string, examples: readonly DocExample[]): Map<string, DocExample> {
  const written = new Map<string, DocExample>();
  for (const example of examples) {
    const file = path.posix.join(folderOf(example.doc), example.file);
    const earlier = written.get(file);
    if (earlier) {
      throw new Error(
        `${example.doc}:${example.line}: a second complete example named ${example.file} (the first is at line ${earlier.line}). ` +
          'The marked blocks of a page form one project: give each file its own name.',
      );
    }
    written.set(file, example);
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    writeFileSync(path.join(dir, file), example.code);
  }
  // Relative imports of a file placed next to a sample, that no block of its page provides, read the sample's.
  for (const [file, example] of written) {
    if (!example.besideSample) continue;
    for (const [, specifier] of example.code.matchAll(/from '(\.{1,2}\/[^']+)'/g)) {
      const target = path.posix.join(path.posix.dirname(file), specifier);
      if (written.has(`${target}.ts`) || existsSync(path.join(dir, `${target}.ts`))) continue;
      const source = path.join(root, example.besideSample, path.posix.relative(path.posix.dirname(file), target));
      if (!existsSync(`${source}.ts`)) continue;
      writeFileSync(path.join(dir, `${target}.ts`), `export * from ${JSON.stringify(source)};\n`);
    }
  }
  // The lib's own ambient declarations (a deep import of class-transformer) come with it, as in tsconfig.json.
  const include = ['*/**/*.ts', path.join(root, 'lib', '**', '*.d.ts')];
  writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: COMPILER_OPTIONS, include }, null, 2));
  symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'), 'junction');
  return written;
}

function runTsc(dir: string): { diagnostics: Diagnostic[]; output: string } {
  const run = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', path.join(dir, 'tsconfig.json')], { cwd: dir, encoding: 'utf8' });
  if (run.error) throw run.error;
  const output = `${run.stdout}${run.stderr}`;
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const head = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (head) diagnostics.push({ file: head[1], line: Number(head[2]), column: Number(head[3]), code: head[4], message: head[5] });
    else if (/^\s+\S/.test(line) && diagnostics.length > 0) {
      const last = diagnostics.pop()!;
      diagnostics.push({ ...last, message: `${last.message}\n  ${line.trim()}` });
    }
  }
  if (run.status !== 0 && diagnostics.length === 0) throw new Error(`tsc failed without a diagnostic:\n${output}`);
  return { diagnostics, output };
}

function locate(diagnostic: Diagnostic, written: ReadonlyMap<string, DocExample>): Located {
  const example = written.get(diagnostic.file.split(path.sep).join('/'));
  if (!example) return { text: `${diagnostic.file}(${diagnostic.line},${diagnostic.column}): ${diagnostic.code}: ${diagnostic.message}` };
  return {
    example,
    text:
      `${example.doc}:${example.line + diagnostic.line - 1} (the block at line ${example.line}, ${example.file}:${diagnostic.line}:${diagnostic.column}) ` +
      `${diagnostic.code}: ${diagnostic.message}`,
  };
}

describe('complete examples in docs/', () => {
  const pages = docsPages();
  const examples = pages.flatMap((doc) => extractExamplesOf(root, doc));
  let dir: string;
  let located: Located[] = [];

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-docs-'));
    const written = writeProject(dir, [...examples, ...extractExamples(SELF_TEST_DOC, SELF_TEST)]);
    located = runTsc(dir).diagnostics.map((diagnostic) => locate(diagnostic, written));
  }, 120_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the marked blocks (a page with none is fine)', () => {
    expect(examples.length).toBeGreaterThan(0);
    expect(extractExamplesOf(root, 'docs/getting-started.md').map((e) => e.file)).toEqual(
      expect.arrayContaining(['calculator.tools.ts', 'calculator.module.ts', 'main.ts', 'calculator.spec.ts']),
    );
  });

  it.each(pages.filter((doc) => examples.some((e) => e.doc === doc)))('%s: every complete example compiles', (doc) => {
    const errors = located.filter((d) => d.example?.doc === doc).map((d) => d.text);
    expect(errors).toEqual([]);
  });

  it('compiles the library itself with the documented options (no error outside the examples)', () => {
    expect(located.filter((d) => !d.example).map((d) => d.text)).toEqual([]);
  });

  it('reports a broken block with its page, its line and the compiler message', () => {
    const errors = located.filter((d) => d.example?.doc === SELF_TEST_DOC).map((d) => d.text);
    expect(errors).toEqual([
      expect.stringMatching(
        /^docs\/__self-test__\.md:7 \(the block at line 4, broken\.ts:4:11\) TS2353: Object literal may only specify known properties, and 'nmae' does not exist in type 'ToolOptions'\./,
      ),
    ]);
  });
});

describe('the marker of a complete example', () => {
  const page = (first: string, language = 'ts', indent = '') =>
    ['# Page', '', `${indent}\`\`\`${language}`, `${indent}${first}`, `${indent}const x = 1;`, `${indent}\`\`\``, ''].join('\n');

  it('is a first-line comment naming a .ts file, with an optional note in parentheses', () => {
    expect(extractExamples('docs/p.md', page('// main.ts'))).toEqual([{ doc: 'docs/p.md', file: 'main.ts', line: 4, code: '// main.ts\nconst x = 1;\n' }]);
    expect(extractExamples('docs/p.md', page('// app/calculator.spec.ts (jest)'))[0]).toMatchObject({ file: 'app/calculator.spec.ts' });
    expect(extractExamples('docs/p.md', page('// main.ts', 'ts', '  '))[0]).toMatchObject({ file: 'main.ts', code: '// main.ts\nconst x = 1;\n' });
  });

  it('may place the file next to a sample', () => {
    expect(extractExamples('docs/p.md', page('// node-http-auth.ts (next to samples/notes-auth/notes-auth.module.ts)'))[0]).toMatchObject({
      besideSample: 'samples/notes-auth',
    });
    expect(extractExamples('docs/p.md', page('// client.ts (in samples/notes-auth)'))[0]).toMatchObject({ besideSample: 'samples/notes-auth' });
  });

  it('leaves out fragments, excerpts and other languages', () => {
    expect(extractExamples('docs/p.md', page('await app.listen({ transport: "stdio" });'))).toEqual([]);
    expect(extractExamples('docs/p.md', page('// from samples/notes-auth/main.ts, with --stdio'))).toEqual([]);
    expect(extractExamples('docs/p.md', page('// authorization-server.mjs', 'js'))).toEqual([]);
    expect(extractExamples('docs/p.md', page('// main.ts', 'json'))).toEqual([]);
  });
});
