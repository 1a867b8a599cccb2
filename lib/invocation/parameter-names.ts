/** A parameter as written in the method's source: its name, or how it is not a plain name. */
export type SourceParameter =
  | { readonly kind: 'name'; readonly name: string; /** The default initialiser as written (`2`, `'metric'`), if any. */ readonly initialiser?: string }
  | { readonly kind: 'rest'; readonly name: string }
  | { readonly kind: 'pattern' };

/**
 * Reads a function's parameter list from its source text, as compiled (tsc/swc keep names unless minified).
 * Destructured parameters have no name; `...rest` is reported as such. Returns undefined if the source
 * cannot be read (native or bound functions).
 */
export function readParameters(fn: Function): SourceParameter[] | undefined {
  const source = Function.prototype.toString.call(fn);
  const list = parameterList(source);
  if (list === undefined) return undefined;
  // Comments go first (outside strings): a comma or a name inside one must not count as a parameter.
  return splitTopLevel(stripComments(list))
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part): SourceParameter => {
      if (part.startsWith('...')) return { kind: 'rest', name: part.slice(3).trim().match(/^[\w$]+/)?.[0] ?? '' };
      const name = part.match(/^[A-Za-z_$][\w$]*/)?.[0];
      if (!name) return { kind: 'pattern' };
      const initialiser = part.slice(name.length).match(/^\s*=\s*([\s\S]+)$/)?.[1].trim();
      return initialiser ? { kind: 'name', name, initialiser } : { kind: 'name', name };
    });
}

function parameterList(source: string): string | undefined {
  if (source.includes('[native code]')) return undefined;
  const open = source.indexOf('(');
  if (open < 0) return undefined;
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === '"' || ch === "'" || ch === '`') i = skipString(source, i);
    else if (ch === '/' && source[i + 1] === '*') i = source.indexOf('*/', i + 2) + 1;
    else if (ch === '/' && source[i + 1] === '/') i = source.indexOf('\n', i);
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) return source.slice(open + 1, i);
    }
    if (i < 0) return undefined;
  }
  return undefined;
}

function splitTopLevel(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === '"' || ch === "'" || ch === '`') i = skipString(list, i);
    else if (ch === '(' || ch === '[' || ch === '{') depth++;
    else if (ch === ')' || ch === ']' || ch === '}') depth--;
    else if (ch === ',' && depth === 0) {
      parts.push(list.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(list.slice(start));
  return parts;
}

function skipString(text: string, start: number): number {
  const quote = text[start];
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === quote) return i;
  }
  return text.length;
}

/** The text without its comments; strings (default values) are kept as they are, comment-like text included. */
function stripComments(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = skipString(text, i);
      out += text.slice(i, end + 1);
      i = end;
    } else if (ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      i = end < 0 ? text.length : end + 1;
      out += ' ';
    } else if (ch === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end - 1;
    } else out += ch;
  }
  return out;
}

/**
 * The value of a single-quoted string's body, escapes read as JavaScript reads them (`\n`, `\u00e9`, `\'`):
 * rewritten as a JSON string. An escape JSON lacks (`\x41`, `\v`, `\0`) gives no literal: no default is advertised.
 */
function jsonString(body: string): { value: unknown } | undefined {
  const json = body.replace(/\\(.)|"/g, (match, escaped: string | undefined) => (escaped === "'" ? "'" : escaped === undefined ? '\\"' : match));
  try {
    return { value: JSON.parse(`"${json}"`) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * The value of a default initialiser that is a plain literal (number, string, boolean, null, or a JSON array
 * or object), or undefined when it is an expression that only running the method could evaluate.
 */
export function literalValue(initialiser: string): { value: unknown } | undefined {
  const text = initialiser.trim();
  if (/^'(?:[^'\\]|\\.)*'$/.test(text)) return jsonString(text.slice(1, -1));
  if (/^`[^`$\\]*`$/.test(text)) return { value: text.slice(1, -1) };
  try {
    return { value: JSON.parse(text) as unknown };
  } catch {
    return undefined;
  }
}

/**
 * A name as esbuild gives a parameter it renames (`url2`, `date4`: the written name and a number from 2, when a
 * bundled module declares the written name at top level). A heuristic, told as a warning: `line2` may be written so.
 */
export function looksBundlerRenamed(name: string): boolean {
  return /^[A-Za-z_$][\w$]*[A-Za-z_$](?:[2-9]|[1-9]\d)$/.test(name);
}
