import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pack, root } from '../consumers/consumer';
import { BLOCK_PLACE, extractBlocks, extractBlocksOf, extractExamples } from './doc-examples';
import { makeDocsProject, pages, runJest, typecheck, writeBlocks, type Located, type Written } from './docs-project';

/**
 * Every `ts` block of docs/*.md and README.md compiles, and every jest block runs, as a user gets the package: in
 * one consumer project made from the packed tarball (the build in dist/), with docs/setup.md's package.json and
 * tsconfig.json, docs/testing.md's .swcrc and jest config, and the peers the docs tell users to install, at this
 * repository's versions. One tsc run checks every block (each page's blocks in a folder of their own, each
 * fragment a module of its own); one jest run runs the jest blocks. How a block says what it is: doc-examples.ts.
 */

/**
 * Pages whose blocks do not all compile yet. The list only shrinks: a listed page that passes fails the check
 * (take it off the list).
 */
const NOT_YET_CONVERTED: readonly string[] = [];

/**
 * A page that exercises the failure report: a broken complete file, and a fragment placed in a class by its context,
 * broken in its import (kept at the top of the file) and in its method; a jest block that fails.
 */
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
  '',
  '<!-- ts-context',
  "import { Injectable } from 'mcp-reflect';",
  '@Injectable()',
  'export class Tools {',
  BLOCK_PLACE,
  '}',
  '-->',
  '```ts',
  "import { Nope, Tool } from 'mcp-reflect';",
  '',
  '@Tool()',
  'run(): number {',
  "  return 'one';",
  '}',
  '```',
  '',
  '```ts',
  '// failing.spec.ts (jest)',
  "import { expect, it } from '@jest/globals';",
  "it('fails', () => expect(1).toBe(2));",
  '```',
].join('\n');

describe('every ts block of docs/ and README.md, in a consumer project made from the packed tarball', () => {
  const docs = pages();
  const blocks = [...docs.flatMap((doc) => extractBlocksOf(root, doc)), ...extractBlocks(SELF_TEST_DOC, SELF_TEST)];
  let dir: string;
  let written: Written[] = [];
  let located: Located[] = [];
  let jestFailures: Located[] = [];
  let jestRan: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-docs-'));
    const project = path.join(dir, 'project');
    await makeDocsProject(project, await pack(dir));
    written = writeBlocks(project, blocks);
    located = await typecheck(project, written);
    ({ ran: jestRan, failures: jestFailures } = await runJest(project, written));
  }, 900_000);

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('finds the blocks: complete files, fragments and jest specs', () => {
    expect(blocks.filter((b) => b.doc !== SELF_TEST_DOC).length).toBeGreaterThan(150);
    expect(extractExamples('docs/getting-started.md', readFileSync(path.join(root, 'docs/getting-started.md'), 'utf8')).map((e) => e.file)).toEqual(
      expect.arrayContaining(['calculator.tools.ts', 'calculator.module.ts', 'main.ts', 'calculator.spec.ts']),
    );
    expect(written.filter((w) => w.block.jest).length).toBeGreaterThan(2);
  });

  it.each(docs.filter((doc) => blocks.some((b) => b.doc === doc)))('%s: every block compiles and every jest block passes', (doc) => {
    const errors = [...located, ...jestFailures].filter((d) => d.doc === doc).map((d) => d.text);
    if (NOT_YET_CONVERTED.includes(doc)) {
      // The list only shrinks: a page that passes leaves it.
      expect({ doc, stillFails: errors.length > 0 }).toEqual({ doc, stillFails: true });
    } else expect(errors).toEqual([]);
  });

  it('runs every jest block', () => {
    expect(jestRan.sort()).toEqual(written.filter((w) => w.block.jest).map((w) => w.file).sort());
  });

  it('finds no error outside the blocks (the package and its peers compile with the documented options)', () => {
    expect(located.filter((d) => !d.doc).map((d) => d.text)).toEqual([]);
  });

  it('reports a broken block with its page, its line and the compiler message', () => {
    const errors = located.filter((d) => d.doc === SELF_TEST_DOC).map((d) => d.text);
    expect(errors.sort()).toEqual([
      expect.stringMatching(/^docs\/__self-test__\.md:21 \(the block at line 21, a fragment:1:10\) TS2305: Module '"mcp-reflect"' has no exported member 'Nope'\./),
      expect.stringMatching(/^docs\/__self-test__\.md:25 \(the block at line 21, a fragment:5:3\) TS2322: Type 'string' is not assignable to type 'number'\./),
      expect.stringMatching(
        /^docs\/__self-test__\.md:7 \(the block at line 4, broken\.ts:4:11\) TS2353: Object literal may only specify known properties, and 'nmae' does not exist in type 'ToolOptions'\./,
      ),
    ]);
  });

  it('reports a failing jest block with its page and line', () => {
    expect(jestFailures.filter((d) => d.doc === SELF_TEST_DOC).map((d) => d.text)).toEqual([
      expect.stringMatching(/^docs\/__self-test__\.md:30 \(failing\.spec\.ts, run by jest\): [\s\S]*Expected: 2/),
    ]);
  });
});

describe('the kinds of blocks', () => {
  const page = (first: string, language = 'ts', indent = '', above = '') =>
    ['# Page', '', ...(above ? [above] : []), `${indent}\`\`\`${language}`, `${indent}${first}`, `${indent}const x = 1;`, `${indent}\`\`\``, ''].join('\n');

  it('a complete file: a first-line comment naming a .ts file, with an optional note in parentheses', () => {
    expect(extractBlocks('docs/p.md', page('// main.ts'))).toEqual([{ doc: 'docs/p.md', file: 'main.ts', line: 4, code: '// main.ts\nconst x = 1;\n', jest: false, continues: false }]);
    expect(extractBlocks('docs/p.md', page('// app/calculator.spec.ts (jest)'))[0]).toMatchObject({ file: 'app/calculator.spec.ts', jest: true });
    expect(extractBlocks('docs/p.md', page('// main.ts', 'ts', '  '))[0]).toMatchObject({ file: 'main.ts', code: '// main.ts\nconst x = 1;\n' });
  });

  it('a complete file of the converter project: <!-- file: path --> above the fence', () => {
    expect(extractBlocks('docs/p.md', page("import 'reflect-metadata';", 'ts', '', '<!-- file: src/main.ts -->'))[0]).toMatchObject({ file: 'src/main.ts', jest: false });
    expect(extractBlocks('docs/p.md', page("import 'reflect-metadata';", 'ts', '', '<!-- file: src/main.spec.ts -->'))[0]).toMatchObject({ jest: true });
  });

  it('may place the file next to a sample', () => {
    expect(extractBlocks('docs/p.md', page('// node-http-auth.ts (next to samples/notes-auth/notes-auth.module.ts)'))[0]).toMatchObject({
      besideSample: 'samples/notes-auth',
    });
    expect(extractBlocks('docs/p.md', page('// client.ts (in samples/notes-auth)'))[0]).toMatchObject({ besideSample: 'samples/notes-auth' });
  });

  it('a fragment: any other ts block, with an optional hidden context that may place it or continue the previous block', () => {
    expect(extractBlocks('docs/p.md', page('await app.listen({ transport: "stdio" });'))[0]).toEqual({
      doc: 'docs/p.md',
      line: 4,
      code: 'await app.listen({ transport: "stdio" });\nconst x = 1;\n',
      jest: false,
      continues: false,
    });
    expect(extractBlocks('docs/p.md', page('app;', 'ts', '', "<!-- ts-context\nimport { McpApplication } from 'mcp-reflect';\ndeclare const app: McpApplication;\n-->"))[0]).toMatchObject({
      context: "import { McpApplication } from 'mcp-reflect';\ndeclare const app: McpApplication;\n",
      continues: false,
    });
    expect(extractBlocks('docs/p.md', page('app;', 'ts', '', '<!-- ts-context continues -->'))[0]).toMatchObject({ continues: true });
    expect(extractBlocks('docs/p.md', page('app;', 'ts', '', '<!-- ts-context continues\nconst more = 1;\n-->'))[0]).toMatchObject({ continues: true, context: 'const more = 1;\n' });
  });

  it('a hidden file of the page: <!-- ts-file name … -->; a page made of a sample: <!-- ts-beside samples/x -->', () => {
    const markdown = ['# Page', '<!-- ts-file app.module.ts', 'export class AppModule {}', '-->', '<!-- ts-beside samples/notes -->', ''].join('\n');
    expect(extractBlocks('docs/p.md', markdown)).toEqual([
      { doc: 'docs/p.md', line: 3, code: 'export class AppModule {}\n', file: 'app.module.ts', jest: false, continues: false, hidden: true },
      { doc: 'docs/p.md', line: 5, code: '', jest: false, continues: false, hidden: true, besideSample: 'samples/notes' },
    ]);
  });

  it('refuses a context that stands above no ts block', () => {
    expect(() => extractBlocks('docs/p.md', ['# Page', '<!-- ts-context', 'declare const app: unknown;', '-->', '', '```ts', 'app;', '```'].join('\n'))).toThrow(
      'docs/p.md:2: a <!-- ts-context --> comment must stand right above a ```ts block (the line after it is: "").',
    );
  });

  it('leaves out other languages', () => {
    expect(extractBlocks('docs/p.md', page('// authorization-server.mjs', 'js'))).toEqual([]);
    expect(extractBlocks('docs/p.md', page('// main.ts', 'json'))).toEqual([]);
  });
});
