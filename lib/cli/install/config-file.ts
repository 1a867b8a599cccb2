import { applyEdits, findNodeAtLocation, getNodeValue, modify, parseTree, printParseErrorCode, type Edit, type FormattingOptions, type Node, type ParseError } from 'jsonc-parser';

/**
 * A host's configuration file as JSON with comments (VS Code's mcp.json, Claude's and Gemini's settings): read by
 * jsonc-parser, and edited in place, so that its comments, indentation, key order and other entries stay byte for
 * byte and only the server's own entry is written.
 */

/** Why the text is not a configuration, with its 1-based line and column; undefined when it is one. */
export interface ConfigProblem {
  readonly line?: number;
  readonly column?: number;
  readonly reason: string;
}

/** How the file is indented and ends its lines (all that jsonc-parser's formatter is given). */
type Format = Required<Pick<FormattingOptions, 'insertSpaces' | 'tabSize' | 'eol'>>;

const PARSE = { allowTrailingComma: true, disallowComments: false } as const;

/** jsonc-parser's error codes, said as a person fixing the file would read them. */
const REASONS: Readonly<Record<string, string>> = {
  InvalidSymbol: 'a character that JSON does not allow here',
  InvalidNumberFormat: 'a malformed number',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: "a ':' was expected after the property name",
  CommaExpected: "a ',' was expected between two entries",
  CloseBraceExpected: "a closing '}' was expected",
  CloseBracketExpected: "a closing ']' was expected",
  EndOfFileExpected: 'the file should end after its top-level object',
  InvalidCommentToken: 'a malformed comment',
  UnexpectedEndOfComment: "a block comment is not closed with '*/'",
  UnexpectedEndOfString: 'a string is not closed on its line',
  UnexpectedEndOfNumber: 'a number ends too early',
  InvalidUnicode: 'a malformed \\u escape',
  InvalidEscapeCharacter: 'an escape that JSON does not know',
  InvalidCharacter: 'a control character inside a string',
};

/** The text's top-level object (comments and trailing commas allowed), or the first reason it is not one. */
export function readJsonc(source: string): { json: Record<string, unknown> } | { problem: ConfigProblem } {
  const text = withoutBom(source);
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE);
  const first = errors[0];
  if (first) {
    const code = printParseErrorCode(first.error);
    const found = text.slice(first.offset, first.offset + first.length).trim();
    const more = errors.length > 1 ? `; ${errors.length - 1} more after it` : '';
    const lines = text.slice(0, first.offset).split('\n');
    return { problem: { line: lines.length, column: lines.at(-1)!.length + 1, reason: `${code}: ${REASONS[code] ?? code}${found ? `, found ${JSON.stringify(found)}` : ''}${more}` } };
  }
  if (root?.type !== 'object') return { problem: { reason: `its top level is ${root ? `a JSON ${root.type}` : 'empty of values'}, not an object` } };
  return { json: getNodeValue(root) as Record<string, unknown> };
}

/**
 * The text with `value` set at `object.name` (`object` a key of the top-level object, made when missing), every other
 * byte kept. A new property goes after its last sibling, on its own line at the sibling's indentation (after the
 * sibling's comma and comment on that line); an object written on one line gets it on that line, compact. The value is
 * laid out by jsonc-parser's formatter with the file's own indentation and line ends.
 */
export function setEntry(source: string, object: string, name: string, value: unknown): string {
  const bom = source.length - withoutBom(source).length === 1 ? '\uFEFF' : '';
  const text = source.slice(bom.length);
  const format = formattingOf(text);
  const at = (current: string, path: string[]) => findNodeAtLocation(parseTree(current, [], PARSE)!, path);
  const servers = at(text, [object]);
  // A top-level object or a servers object written on one line (a minified file) keeps its entries compact.
  const compact = oneLine(text, parseTree(text, [], PARSE)!) || (servers !== undefined && oneLine(text, servers));
  if (compact) return bom + applyEdits(text, modify(text, [object, name], value, {}));
  let current = text;
  if (!servers) current = insertProperty(current, [], object, {}, format);
  if (!at(current, [object, name])) current = insertProperty(current, [object], name, null, format);
  return bom + applyEdits(current, modify(current, [object, name], value, { formattingOptions: format }));
}

/** The text without the byte-order mark an editor on Windows may put first (jsonc-parser refuses it). */
const withoutBom = (text: string) => (text.startsWith('\uFEFF') ? text.slice(1) : text);

/** An object that has entries and is written on one line. */
const oneLine = (text: string, node: Node) => (node.children?.length ?? 0) > 0 && !text.slice(node.offset, node.offset + node.length).includes('\n');

/** Adds `name: value` to the (multi-line or empty) object at `path`, on a line of its own, keeping every other byte. */
function insertProperty(text: string, path: readonly string[], name: string, value: unknown, format: Format): string {
  const root = parseTree(text, [], PARSE)!;
  const parent = path.length === 0 ? root : findNodeAtLocation(root, [...path])!;
  const property = `${JSON.stringify(name)}: ${JSON.stringify(value)}`;
  const last = parent.children?.at(-1);
  const eol = format.eol;
  if (!last) {
    // An empty object: the property on a line of its own, one level in; the closing brace on the next line.
    const indent = indentAt(text, parent.offset);
    const unit = format.insertSpaces ? ' '.repeat(format.tabSize) : '\t';
    const blank = text.slice(parent.offset + 1, parent.offset + parent.length - 1).trim() === ''; // `{}`, `{ }`, `{\n}`: laid anew
    return applyEdits(text, [{ offset: parent.offset + 1, length: blank ? parent.length - 2 : 0, content: `${eol}${indent}${unit}${property}${blank ? `${eol}${indent}` : ''}` }]);
  }
  const end = last.offset + last.length;
  const indent = indentAt(text, last.offset);
  // What follows the last sibling on its line: its trailing comma and its comment stay with it.
  const rest = /^([ \t]*)(,?)([ \t]*(?:\/\/[^\r\n]*|\/\*[^\r\n]*?\*\/)?[ \t]*)(?=\r?\n)/.exec(text.slice(end));
  const edits: Edit[] = rest
    ? [
        ...(rest[2] ? [] : [{ offset: end, length: 0, content: ',' }]),
        { offset: end + rest[0].length, length: 0, content: `${eol}${indent}${property}${rest[2]}` },
      ]
    : [{ offset: end, length: 0, content: `,${eol}${indent}${property}` }];
  return applyEdits(text, edits);
}

/** The leading whitespace of the line that `offset` is on. */
function indentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The file's own indentation (tabs, or the smallest step of spaces) and line ends; two spaces and \n when it shows none. */
function formattingOf(text: string): Format {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const indents = text.split(/\r?\n/).map((line) => /^[ \t]+(?=\S)/.exec(line)?.[0]).filter((indent): indent is string => indent !== undefined);
  if (indents.some((indent) => indent.startsWith('\t'))) return { insertSpaces: false, tabSize: 4, eol };
  const spaces = indents.map((indent) => indent.length);
  return { insertSpaces: true, tabSize: spaces.length > 0 ? Math.min(...spaces) : 2, eol };
}
