import path from 'node:path';
import { DocumentProblem } from './openapi.messages';

/**
 * Why the file `given` as `document` cannot be opened (`code`: ENOENT, EACCES…), and the fix. A relative path is
 * read from the working directory, as Node reads every relative path: the folder of the module that declares it
 * cannot be known reliably (a bundle, a compiled dist/ and a test runner each move it). A host (Claude Desktop,
 * Cursor, VS Code, …) starts a server from a folder of its own, so the message names that folder, the file it
 * looked for, and the form that does not depend on it: `join(__dirname, …)`.
 */
export function unopenedDocument(given: string, code: string, cause: unknown): DocumentProblem {
  if (path.isAbsolute(given)) {
    return new DocumentProblem(`the file cannot be opened (${code})`, 'give the path of an OpenAPI document', undefined, { cause });
  }
  const fromModule = given.replace(/^\.[\\/]/, '').replace(/\\/g, '/');
  return new DocumentProblem(
    `the file cannot be opened (${code}): the relative path ${given} is read from the working directory, ${process.cwd()}, as ${path.resolve(given)} ` +
      '(a host such as Claude Desktop, Cursor or VS Code starts a server from a folder of its own)',
    `give a path that does not depend on the working directory: the document's place from the module that declares it, join(__dirname, '${fromModule}') ` +
      `(import { join } from 'node:path'; in an ES module, join(import.meta.dirname, '${fromModule}')), with the file copied beside the built module`,
    undefined,
    { cause },
  );
}
