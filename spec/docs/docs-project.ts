import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { basePackages, childEnv, docFiles, jestPackages, makeProject, pinned, root, writeFiles } from '../consumers/consumer';
import { BLOCK_PLACE, type DocBlock } from './doc-examples';

/**
 * The consumer project of the docs check (docs-examples.spec.ts): the packed tarball installed with docs/setup.md's
 * package.json and tsconfig.json, docs/testing.md's .swcrc and jest config and the peers the docs name; every block
 * of the docs written into `pages/` (doc-examples.ts says how a block says what it is); one tsc run over all of
 * them, one jest run over the jest blocks.
 */
/** What the docs ask users to install for the pages' features, beside setup.md's and testing.md's packages. */
export const PEERS = [
  ...['@nestjs/common', '@nestjs/core', '@nestjs/testing', '@nestjs/platform-express', '@nestjs/config', 'rxjs'],
  ...['ioredis', 'bullmq', 'oidc-provider', 'openid-client', '@apidevtools/json-schema-ref-parser', 'zod', 'valibot', '@valibot/to-json-schema'],
  ...['@modelcontextprotocol/client', '@modelcontextprotocol/ext-apps', '@hono/node-server', 'express', '@types/express'],
].map((name) => (name.startsWith('@modelcontextprotocol/client') ? `${name}@${dependencyVersion(name)}` : pinned(name)));
/**
 * What the docs name and this repository does not depend on, at the versions the docs were checked with: Hono
 * (docs/runtimes.md), and OpenTelemetry's Node SDK with the API it needs (docs/builtins.md: `npm install
 * @opentelemetry/api @opentelemetry/sdk-node`; the SDK wants a newer API than the one this repository tests with).
 */
export const UNPINNED = ['hono@4.13.23', '@opentelemetry/api@1.10.0', '@opentelemetry/sdk-node@0.301.2'];

function dependencyVersion(name: string): string {
  return (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[name];
}

export interface Diagnostic {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly code: string;
  readonly message: string;
}

/** A written block: its file in the project, and where the block's lines are in that file. */
export interface Written {
  readonly block: DocBlock;
  readonly file: string;
  /** Runs of the block's lines: from the 1-based line `from` of the file, `count` lines, starting at the block's line `offset` (0-based). */
  readonly segments: readonly { readonly from: number; readonly count: number; readonly offset: number }[];
}

/** A block's leading imports (and the blank lines among them), and the rest. */
function splitImports(code: string): [string, string] {
  const lines = code.split('\n');
  let end = 0;
  for (let i = 0; i < lines.length; i++) {
    if (/^import\b/.test(lines[i])) {
      while (i < lines.length && !/;\s*(\/\/.*)?$/.test(lines[i])) i++;
      end = i + 1;
    } else if (lines[i].trim() !== '') break;
  }
  return [lines.slice(0, end).join('\n') + (end > 0 ? '\n' : ''), lines.slice(end).join('\n')];
}

const lineCount = (text: string) => (text === '' ? 0 : text.split('\n').length - 1);

export interface Located {
  readonly doc?: string;
  readonly text: string;
}

export function pages(): string[] {
  const docs = readdirSync(path.join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function folderOf(doc: string): string {
  return path.basename(doc, '.md');
}

/** The project files of every block: `pages/<page>/<file>` (complete files, setup.md's in `pages/converter/`) and `pages/<page>/L<line>.mts` (fragments). */
export function layout(blocks: readonly DocBlock[]): { files: Record<string, string>; written: Written[] } {
  const files: Record<string, string> = {};
  const written: Written[] = [];
  const fullCode = new Map<DocBlock, string>();
  let previous: DocBlock | undefined;
  for (const block of blocks) {
    if (previous?.doc !== block.doc) previous = undefined;
    if (block.hidden && block.file === undefined) {
      // <!-- ts-beside samples/x -->: nothing to write, the sample's files are copied beside the page's.
      written.push({ block, file: `pages/${folderOf(block.doc)}/.beside`, segments: [] });
      continue;
    }
    const lines = block.code.split('\n').length - 1;
    if (block.file !== undefined) {
      // `<!-- file: src/x.ts -->` blocks (setup.md, testing.md) are the converter project; `// x.ts` blocks their page's.
      const file = block.hidden || block.code.startsWith(`// ${block.file}`) ? `pages/${folderOf(block.doc)}/${block.file}` : `pages/converter/${block.file}`;
      const earlier = written.find((w) => w.file === file);
      if (earlier) {
        throw new Error(
          `${block.doc}:${block.line}: a second complete file named ${block.file} (the first is at ${earlier.block.doc}:${earlier.block.line}). ` +
            'The complete files of a page form one project: give each file its own name.',
        );
      }
      files[file] = block.code;
      fullCode.set(block, block.code);
      written.push({ block, file, segments: [{ from: 1, count: lines, offset: 0 }] });
    } else {
      const before = block.continues ? (previous ? fullCode.get(previous)! : undefined) : '';
      if (before === undefined) throw new Error(`${block.doc}:${block.line}: <!-- ts-context continues --> on the first block of the page: there is nothing to continue.`);
      const context = block.context ?? '';
      const placed = context.includes(BLOCK_PLACE);
      const [head, tail] = placed ? context.split(BLOCK_PLACE) : [context, ''];
      // A block placed inside its context (a method inside a class) keeps its leading imports at the top of the file.
      const [imports, body] = placed ? splitImports(block.code) : ['', block.code];
      const code = `${imports}${before}${head}${body}${tail}`;
      const bodyFrom = lineCount(`${imports}${before}${head}`) + 1;
      const segments = [
        ...(imports ? [{ from: 1, count: lineCount(imports), offset: 0 }] : []),
        { from: bodyFrom, count: lines - lineCount(imports), offset: lineCount(imports) },
      ];
      // An ES module (top-level await allowed), unless it imports a relative path without an extension, which only
      // a CommonJS module can: a fragment that does both would run in no project.
      const esm = ![...code.matchAll(/from '(\.{1,2}\/[^']*)'/g)].some(([, specifier]) => !/\.(?:[cm]?js|json)$/.test(specifier));
      const file = `pages/${folderOf(block.doc)}/L${block.line}.${esm ? 'mts' : 'ts'}`;
      files[file] = `${code}export {};\n`;
      fullCode.set(block, code);
      written.push({ block, file, segments });
    }
    if (!block.hidden) previous = block;
  }
  // What `npx mcp-reflect generate` (docs/types.md) and `npx mcp-reflect validators` (docs/runtimes.md) write, where a
  // page imports it and gives no file of that name: its declared type, as the generated file declares it.
  const generated: Record<string, string> = {
    'mcp-metadata.ts': "import type { GeneratedMetadata } from 'mcp-reflect';\n\nexport declare const metadata: GeneratedMetadata;\nexport default metadata;\n",
    'mcp-validators.d.ts': "import type { PrecompiledValidators } from 'mcp-reflect';\nexport declare const validators: PrecompiledValidators;\n",
  };
  for (const file of Object.keys(files)) {
    for (const [name, content] of Object.entries(generated)) {
      const target = `${path.posix.dirname(file)}/${name}`;
      const module = name.replace(/(\.d)?\.ts$/, '');
      if (new RegExp(`from '\\./${module}(\\.js)?'`).test(files[file]) && files[target] === undefined) files[target] = content;
    }
  }
  return { files, written };
}

/** Sample files next to which a complete file says it stands, when no block of its page gives them. */
export function samples(written: readonly Written[], files: Record<string, string>): Record<string, string> {
  const copies: Record<string, string> = {};
  for (const { block, file } of written) {
    if (!block.besideSample) continue;
    const folder = path.posix.dirname(file);
    for (const name of readdirSync(path.join(root, block.besideSample))) {
      const target = `${folder}/${name}`;
      if (!/\.ts$/.test(name) || /\.spec\.ts$/.test(name) || files[target] !== undefined || copies[target] !== undefined) continue;
      copies[target] = readFileSync(path.join(root, block.besideSample, name), 'utf8');
    }
  }
  return copies;
}

export function parseTsc(output: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const line of output.split('\n')) {
    const head = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/.exec(line);
    if (head) diagnostics.push({ file: head[1], line: Number(head[2]), column: Number(head[3]), code: head[4], message: head[5] });
    else if (/^\s+\S/.test(line) && diagnostics.length > 0) {
      const last = diagnostics.pop()!;
      diagnostics.push({ ...last, message: `${last.message}\n  ${line.trim()}` });
    }
  }
  return diagnostics;
}

export function locate(diagnostic: Diagnostic, written: readonly Written[]): Located {
  const file = diagnostic.file.split(path.sep).join('/');
  const at = written.find((w) => w.file === file);
  if (!at) return { text: `${file}(${diagnostic.line},${diagnostic.column}): ${diagnostic.code}: ${diagnostic.message}` };
  const { block } = at;
  const segment = at.segments.find((s) => diagnostic.line >= s.from && diagnostic.line < s.from + s.count);
  const inBlock = segment && segment.offset + diagnostic.line - segment.from;
  const where = segment
    ? `${block.doc}:${block.line + inBlock!} (the block at line ${block.line}, ${block.file ?? 'a fragment'}:${inBlock! + 1}:${diagnostic.column})`
    : `${block.doc}: the block at line ${block.line}, in what it continues or its <!-- ts-context --> (${file}:${diagnostic.line}:${diagnostic.column})`;
  return { doc: block.doc, text: `${where} ${diagnostic.code}: ${diagnostic.message}` };
}

/** Runs a command; its exit status and output, without throwing on a failure. */
export async function run(cmd: string, args: string[], cwd: string): Promise<{ status: number; output: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(cmd, args, { cwd, encoding: 'utf8', env: childEnv, maxBuffer: 64 * 1024 * 1024, timeout: 600_000 });
    return { status: 0, output: `${stdout}${stderr}` };
  } catch (error) {
    const { stdout, stderr, code, message } = error as { stdout?: string; stderr?: string; code?: number | string; message: string };
    if (typeof code !== 'number') throw new Error(`${cmd} ${args.join(' ')} did not run in ${cwd}: ${message}`);
    return { status: code, output: `${stdout ?? ''}${stderr ?? ''}` };
  }
}

export interface JestReport {
  readonly testResults: readonly { readonly name: string; readonly status: string; readonly message: string }[];
}


/** Installs the consumer project in `project`: the tarball, the docs' set-up files, the packages the docs name. */
export async function makeDocsProject(project: string, tarball: string): Promise<void> {
  const setup = docFiles('setup.md', 'CommonJS');
  const testing = docFiles('testing.md', 'CommonJS');
  const tsconfig = JSON.parse(setup['tsconfig.json']) as { compilerOptions: Record<string, unknown> };
  // The blocks are checked, not built: no rootDir (they live in pages/, not src/), no output.
  delete tsconfig.compilerOptions.rootDir;
  delete tsconfig.compilerOptions.outDir;
  await makeProject(
    project,
    tarball,
    {
      'package.json': setup['package.json'],
      'tsconfig.json': JSON.stringify({ compilerOptions: { ...tsconfig.compilerOptions, noEmit: true }, include: ['pages'] }, null, 2),
      '.swcrc': testing['.swcrc'],
      'jest.docs.config.js': testing['jest.config.js'],
    },
    [...basePackages, ...jestPackages, ...PEERS, ...UNPINNED],
  );
}

/** Writes every block into `project/pages/` (replacing what was there) and the jest config that runs the jest blocks. */
export function writeBlocks(project: string, blocks: readonly DocBlock[]): Written[] {
  const laid = layout(blocks);
  rmSync(path.join(project, 'pages'), { recursive: true, force: true });
  const jestFiles = laid.written.filter((w) => w.block.jest).map((w) => `<rootDir>/${w.file}`);
  writeFiles(project, {
    ...laid.files,
    ...samples(laid.written, laid.files),
    // docs/testing.md's configuration, with the blocks' folder in place of src/.
    'jest.config.js': `module.exports = { ...require('./jest.docs.config.js'), roots: ['<rootDir>/pages'], testMatch: ${JSON.stringify(jestFiles)} };\n`,
  });
  return laid.written;
}

/** One tsc run over every block: its errors, each located in its page. */
export async function typecheck(project: string, written: readonly Written[]): Promise<Located[]> {
  const tsc = await run(path.join(project, 'node_modules', '.bin', 'tsc'), ['--noEmit', '--pretty', 'false', '-p', 'tsconfig.json'], project);
  const diagnostics = parseTsc(tsc.output);
  if (tsc.status !== 0 && diagnostics.length === 0) throw new Error(`tsc failed without a diagnostic:\n${tsc.output}`);
  return diagnostics.map((d) => locate(d, written));
}

/** One jest run over the jest blocks: the files it ran and its failures, each located in its page. */
export async function runJest(project: string, written: readonly Written[]): Promise<{ ran: string[]; failures: Located[] }> {
  const report = path.join(project, 'jest-report.json');
  rmSync(report, { force: true });
  const jest = await run(path.join(project, 'node_modules', '.bin', 'jest'), ['--ci', '--json', `--outputFile=${report}`], project);
  if (!existsSync(report)) throw new Error(`jest wrote no report:\n${jest.output.slice(-4000)}`);
  const results = (JSON.parse(readFileSync(report, 'utf8')) as JestReport).testResults;
  const relative = (name: string) => path.relative(project, name).split(path.sep).join('/');
  const failures = results
    .filter((r) => r.status !== 'passed')
    .map((r) => {
      const block = written.find((w) => w.file === relative(r.name))?.block;
      return { doc: block?.doc, text: `${block ? `${block.doc}:${block.line} (${block.file}, run by jest)` : r.name}: ${r.message.slice(0, 3000)}` };
    });
  return { ran: results.map((r) => relative(r.name)), failures };
}
