import { readFileSync } from 'node:fs';

/**
 * A fenced `ts` block of a docs page that is marked as a complete example: its first line is a comment that
 * names the file, `// calculator.tools.ts`, optionally followed by a note in parentheses
 * (`// calculator.spec.ts (jest)`). A note that names a folder under `samples/`
 * (`// node-http-auth.ts (next to samples/notes-auth/notes-auth.module.ts)`) places the file beside that
 * sample: its relative imports that no block of the page provides are read from there.
 */
export interface DocExample {
  /** The page, relative to the repository root (`docs/getting-started.md`). */
  readonly doc: string;
  /** The file the block is, relative to the page's example folder (`calculator.tools.ts`). */
  readonly file: string;
  /** 1-based line of the page where the block's first code line (the marker) is. */
  readonly line: number;
  /** The block's code, its fence indentation removed. */
  readonly code: string;
  /** With a `samples/...` note: that folder, relative to the repository root. */
  readonly besideSample?: string;
}

const FENCE = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const MARKER = /^\/\/ ((?:[\w.-]+\/)*[\w.-]+\.(?:ts|mts|cts))(?:\s+\((.*)\))?\s*$/;
const SAMPLE = /\bsamples\/((?:[\w.-]+\/)*[\w.-]+)/;

/** The marked `ts` blocks of one page, in order. */
export function extractExamples(doc: string, markdown: string): DocExample[] {
  const lines = markdown.split(/\r?\n/);
  const examples: DocExample[] = [];
  for (let i = 0; i < lines.length; i++) {
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
    const marker = MARKER.exec(body[0] ?? '');
    if ((language === 'ts' || language === 'typescript') && marker) {
      const sample = marker[2] === undefined ? undefined : SAMPLE.exec(marker[2]);
      const folder = sample && (/\.[cm]?ts$/.test(sample[1]) ? sample[1].replace(/\/[^/]+$/, '') : sample[1]);
      examples.push({ doc, file: marker[1], line: i + 2, code: body.join('\n') + '\n', ...(folder ? { besideSample: `samples/${folder}` } : {}) });
    }
    i = j;
  }
  return examples;
}

export function extractExamplesOf(root: string, doc: string): DocExample[] {
  return extractExamples(doc, readFileSync(`${root}/${doc}`, 'utf8'));
}
