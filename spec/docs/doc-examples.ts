import { readFileSync } from 'node:fs';

/**
 * The `ts` blocks of the docs, as the docs check (spec/docs/docs-examples.spec.ts) compiles them. Every block is
 * one of:
 *
 * - a complete file: its first line is a comment that names the file, `// calculator.tools.ts`, optionally followed
 *   by a note in parentheses (`// calculator.spec.ts (jest)`), or the line above the fence is
 *   `<!-- file: src/main.ts -->` (the converter project of setup.md and testing.md, which the package spec takes
 *   verbatim). The complete files of a page form one project: they import each other by their file names. A note that
 *   says `jest` makes the file a spec that the check runs with docs/testing.md's jest set-up; a note that names a
 *   folder under `samples/` (`// node-http-auth.ts (next to samples/notes-auth/notes-auth.module.ts)`) places the
 *   file beside that sample: the sample's files that no block of the page provides are copied beside it.
 * - a hidden file: `<!-- ts-file app.module.ts` … `-->`, a file of the page's project that its blocks import and
 *   the page does not show (the page's text says what it is).
 * - `<!-- ts-beside samples/notes -->`: the sample's files that no block of the page provides are copied into the
 *   page's folder, for pages whose blocks are excerpts of that sample (a fragment's context imports them,
 *   `./notes.enhancers.js`).
 * - a fragment: any other block. It compiles as an ES module of its own (top-level `await` allowed) in the page's
 *   folder, so it may import the page's complete files (`./calculator.module.js`). What it leans on and does not
 *   show (its imports, an `app`, the class a method belongs to) is given by a hidden context, an HTML comment right
 *   above the fence:
 *
 *       <!-- ts-context
 *       import { Injectable, Tool } from 'mcp-reflect';
 *       class Tools {
 *       /* block *\/
 *       }
 *       -->
 *
 *   The block goes where the line `/* block *\/` is (its leading imports stay at the top of the file, so a block
 *   may show its imports and then a method the context places in a class), or after the context when there is
 *   no such line. A fragment
 *   is an ES module (`.mts`: top-level `await` allowed) unless it imports a relative path without an extension
 *   (`./app.module`), which makes it a CommonJS one (`.ts`); relative imports that end in `.js` serve both.
 *   `<!-- ts-context continues -->` (a context may follow the word) makes the fragment continue the previous block
 *   of the page: that block's code (with its own context) comes first.
 */
export interface DocBlock {
  /** The page, relative to the repository root (`docs/getting-started.md`). */
  readonly doc: string;
  /** 1-based line of the page where the block's first code line is. */
  readonly line: number;
  /** The block's code, its fence indentation removed. */
  readonly code: string;
  /** A complete file: its path, relative to the page's project (`calculator.tools.ts`, `src/main.ts`). */
  readonly file?: string;
  /** A complete file whose note says `jest`, or a `<!-- file: -->` spec: the check runs it with jest. */
  readonly jest: boolean;
  /** With a `samples/...` note: that folder, relative to the repository root. */
  readonly besideSample?: string;
  /** A fragment's hidden context (the code of its `<!-- ts-context -->` comment). */
  readonly context?: string;
  /** A fragment that continues the previous block of its page. */
  readonly continues: boolean;
  /** A hidden file (`<!-- ts-file name` … `-->`), not a block of the page. */
  readonly hidden?: true;
}

/** A complete file of a page (the blocks the first kind describes). */
export interface DocExample extends DocBlock {
  readonly file: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const MARKER = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|cts))(?:\s+\((.*)\))?\s*$/;
const SAMPLE = /\bsamples\/((?:[\w.-]+\/)*[\w.-]+)/;
const FILE_COMMENT = /^<!-- file: (\S+)(?: \(([^)]+)\))? -->$/;
export const BLOCK_PLACE = '/* block */';

/** The comment that ends right above line `end` (exclusive): its lines, or undefined. */
function commentAbove(lines: readonly string[], end: number): string[] | undefined {
  const last = end - 1;
  if (last < 0 || !lines[last].trim().endsWith('-->')) return undefined;
  let first = last;
  while (first >= 0 && !lines[first].trim().startsWith('<!--')) first--;
  if (first < 0) return undefined;
  return lines.slice(first, last + 1);
}

/** Every `ts` block of one page, in order. */
export function extractBlocks(doc: string, markdown: string): DocBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (/^\s*<!-- ts-context\b/.test(lines[i])) {
      // A context belongs to the block right below it: one anywhere else would be ignored without a word.
      let end = i;
      while (end < lines.length && !lines[end].trim().endsWith('-->')) end++;
      const next = FENCE.exec(lines[end + 1] ?? '');
      if (!next || !['ts', 'typescript'].includes(next[3])) {
        throw new Error(`${doc}:${i + 1}: a <!-- ts-context --> comment must stand right above a \`\`\`ts block (the line after it is: ${JSON.stringify(lines[end + 1] ?? '')}).`);
      }
    }
    const beside = /^<!-- ts-beside samples\/((?:[\w.-]+\/)*[\w.-]+) -->$/.exec(lines[i].trim());
    if (beside) {
      blocks.push({ doc, line: i + 1, code: '', jest: false, continues: false, hidden: true, besideSample: `samples/${beside[1]}` });
      continue;
    }
    const hidden = /^(\s*)<!-- ts-file ((?:[\w.-]+\/)*[\w.-]+\.ts)\s*$/.exec(lines[i]);
    if (hidden) {
      let j = i + 1;
      while (j < lines.length && lines[j].trim() !== '-->') j++;
      const code = lines.slice(i + 1, j).map((line) => (line.startsWith(hidden[1]) ? line.slice(hidden[1].length) : line.trimStart()));
      blocks.push({ doc, line: i + 2, code: code.join('\n') + '\n', file: hidden[2], jest: false, continues: false, hidden: true });
      i = j;
      continue;
    }
    const open = FENCE.exec(lines[i]);
    if (!open) continue;
    const [, indent, fence, language] = open;
    const body: string[] = [];
    let j = i + 1;
    for (; j < lines.length; j++) {
      const close = FENCE.exec(lines[j]);
      if (close && close[2].startsWith(fence[0]) && close[2].length >= fence.length && close[3] === '') break;
      body.push(lines[j].startsWith(indent) ? lines[j].slice(indent.length) : lines[j].trimStart());
    }
    if (language === 'ts' || language === 'typescript') {
      const code = body.join('\n') + '\n';
      const line = i + 2;
      const marker = MARKER.exec(body[0] ?? '');
      const comment = commentAbove(lines, i);
      const fileComment = comment?.length === 1 ? FILE_COMMENT.exec(comment[0].trim()) : null;
      if (marker) {
        const sample = marker[2] === undefined ? undefined : SAMPLE.exec(marker[2]);
        const folder = sample && (/\.[cm]?ts$/.test(sample[1]) ? sample[1].replace(/\/[^/]+$/, '') : sample[1]);
        const jest = marker[2] !== undefined && /\bjest\b/.test(marker[2]);
        blocks.push({ doc, line, code, file: marker[1], jest, continues: false, ...(folder ? { besideSample: `samples/${folder}` } : {}) });
      } else if (fileComment) {
        blocks.push({ doc, line, code, file: fileComment[1], jest: /\.spec\.ts$/.test(fileComment[1]), continues: false });
      } else {
        const context = comment && /^<!-- ts-context\b/.test(comment[0].trim()) ? comment : undefined;
        if (!context) blocks.push({ doc, line, code, jest: false, continues: false });
        else {
          const head = context[0].trim().replace(/^<!-- ts-context/, '').replace(/-->$/, '').trim();
          const continues = /^continues\b/.test(head);
          const rest = [continues ? head.replace(/^continues\b/, '').trim() : head, ...context.slice(1)];
          if (context.length > 1) rest[rest.length - 1] = rest[rest.length - 1].replace(/-->\s*$/, '');
          const text = rest.join('\n').trim();
          blocks.push({ doc, line, code, jest: false, continues, ...(text ? { context: text + '\n' } : {}) });
        }
      }
    }
    i = j;
  }
  return blocks;
}

/** The complete files of one page, in order. */
export function extractExamples(doc: string, markdown: string): DocExample[] {
  return extractBlocks(doc, markdown).filter((block): block is DocExample => block.file !== undefined);
}

export function extractExamplesOf(root: string, doc: string): DocExample[] {
  return extractExamples(doc, readFileSync(`${root}/${doc}`, 'utf8'));
}

export function extractBlocksOf(root: string, doc: string): DocBlock[] {
  return extractBlocks(doc, readFileSync(`${root}/${doc}`, 'utf8'));
}
