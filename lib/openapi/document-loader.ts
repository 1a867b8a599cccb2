import { open } from 'node:fs/promises';
import { readBounded } from './bounded-read';
import { unopenedDocument } from './document-path';
import { DocumentProblem } from './openapi.messages';
import type { OpenApiSettings } from './openapi-options.check';
import { markRefLoops } from './ref-loops';
import { loadPeer } from '../runtime/peer';

/** A document read and dereferenced: every internal `$ref` replaced by what it points to (recursion as cycles). */
export interface OpenApiDocument {
  readonly openapi: string;
  readonly info?: { readonly title?: string; readonly version?: string };
  readonly paths?: Readonly<Record<string, unknown>>;
}

const PARSER = '@apidevtools/json-schema-ref-parser';
/** The URL the parser knows a document read here by (the bytes come from us, never from its own resolvers). */
const ROOT = 'mcp-reflect-openapi:///document';

/** The `$ref` parser, loaded on first use: an application without `fromOpenApi()` never loads it (an optional peer). */
function loadParser(): typeof import('@apidevtools/json-schema-ref-parser') {
  return loadPeer(PARSER, { feature: "McpModule.fromOpenApi() (to resolve an OpenAPI document's $refs)" });
}

/**
 * Reads the document (an object as given, a file or a URL within `maxDocumentBytes`), parses it (JSON or
 * YAML), marks its loops of `$ref`s (which name no schema: see {@link markRefLoops}), resolves its internal
 * `$ref`s and checks that it is OpenAPI 3.0 or 3.1, all before `deadline` (`documentTimeout` after the load
 * began). A `$ref` to another file or URL is not followed (nothing is fetched but the document itself): the
 * schema converter refuses it where an operation uses it. Shared objects stay shared (YAML aliases are never
 * written out here): their expansion is counted by the schema converter.
 */
export async function loadDocument(settings: OpenApiSettings, deadline: number, stopping?: AbortSignal): Promise<OpenApiDocument> {
  const { $RefParser } = loadParser();
  const text = settings.source.kind === 'object' ? undefined : await readText(settings, deadline, stopping);
  const overdue = () => {
    if (Date.now() > deadline) {
      throw new DocumentProblem(`reading and resolving it took longer than documentTimeout (${settings.documentTimeout} ms)`, 'raise documentTimeout, or give a smaller document');
    }
  };
  const options = (mutate: boolean) => ({
    resolve: { external: false, file: false, http: false, given: { order: 1, canRead: (file: { url: string }) => file.url === ROOT, read: () => text ?? '' } },
    parse: { text: false, binary: false }, // JSON or YAML, nothing else
    dereference: { circular: true as const },
    mutateInputSchema: mutate,
    timeoutMs: Math.max(1, deadline - Date.now()),
  });
  let document: unknown;
  try {
    // Our own copy, sharing what the original shares (a JSON round trip would write every shared object out).
    const raw: unknown = settings.source.kind === 'object' ? copyOf(settings.source.value) : await new $RefParser().parse(ROOT, options(true) as never);
    overdue();
    if (typeof raw === 'object' && raw !== null) markRefLoops(raw, overdue);
    document = await new $RefParser().dereference(ROOT, raw as never, options(true) as never);
  } catch (error) {
    throw parserProblem(error, settings);
  }
  overdue();
  return checkVersion(document);
}

function copyOf(value: object): unknown {
  try {
    return structuredClone(value);
  } catch (error) {
    throw new DocumentProblem(`it holds a value that is not JSON (${causeCode(error)})`, 'give the document as plain JSON values (objects, arrays, strings, numbers, booleans, null)', undefined, { cause: error });
  }
}

/**
 * The document's text, read within `deadline`; `stopping` (the application stopped meanwhile) aborts the reading
 * too, so that no fetch or file handle outlives a failed bootstrap.
 */
async function readText(settings: OpenApiSettings, deadline: number, stopping?: AbortSignal): Promise<string> {
  const { source, maxDocumentBytes, documentTimeout } = settings;
  const timeout = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
  const signal = stopping ? AbortSignal.any([timeout, stopping]) : timeout;
  const tooBig = () => new DocumentProblem(`it is larger than maxDocumentBytes (${maxDocumentBytes} bytes)`, 'give a smaller document, or raise maxDocumentBytes');
  const slow = () =>
    stopping?.aborted
      ? new DocumentProblem('the application stopped while it was being read', 'nothing, if the application was closed on purpose; otherwise see why its bootstrap failed (the error thrown first)')
      : new DocumentProblem(`reading it took longer than documentTimeout (${documentTimeout} ms)`, 'check that it can be read quickly, or raise documentTimeout');
  if (source.kind === 'url') {
    let response: Response;
    try {
      response = await fetch(source.url, { signal, headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.5' } });
    } catch (error) {
      if (signal.aborted) throw slow();
      throw new DocumentProblem(`it could not be fetched (${causeCode(error)})`, 'check the URL, and that the server serving the document is up when this application starts', undefined, { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new DocumentProblem(`its URL answered HTTP ${response.status}`, 'check the URL (and whether reading it needs credentials: give the document as an object then)');
    }
    const bytes = await readBounded(response, maxDocumentBytes).catch((error: unknown) => {
      throw signal.aborted ? slow() : new DocumentProblem(`reading it failed (${causeCode(error)})`, 'try again, or give the document as a file', undefined, { cause: error });
    });
    if (!bytes) throw tooBig();
    return new TextDecoder().decode(bytes);
  }
  if (source.kind !== 'file') return '';
  let file;
  try {
    file = await open(source.path, 'r');
  } catch (error) {
    throw unopenedDocument(source.path, causeCode(error), error);
  }
  try {
    const { size } = await file.stat();
    if (size > maxDocumentBytes) throw tooBig();
    return await file.readFile({ encoding: 'utf8', signal });
  } catch (error) {
    if (error instanceof DocumentProblem) throw error;
    if (signal.aborted) throw slow();
    throw new DocumentProblem(`the file cannot be read (${causeCode(error)})`, 'give the path of a readable file', undefined, { cause: error });
  } finally {
    await file.close();
  }
}

function checkVersion(document: unknown): OpenApiDocument {
  if (typeof document !== 'object' || document === null || Array.isArray(document)) {
    throw new DocumentProblem('it is not an object', "give an OpenAPI 3.0 or 3.1 document (an object with 'openapi', 'info' and 'paths')");
  }
  const { openapi, swagger, paths } = document as { openapi?: unknown; swagger?: unknown; paths?: unknown };
  if (swagger !== undefined) {
    throw new DocumentProblem(
      `it is a Swagger ${String(swagger)} document, and only OpenAPI 3.0 and 3.1 are read`,
      'convert it first, e.g. `npx swagger2openapi swagger.json -o openapi.json`',
    );
  }
  if (typeof openapi !== 'string' || !/^3\.[01]\.\d+/.test(openapi)) {
    throw new DocumentProblem(
      `its openapi field is ${JSON.stringify(openapi) ?? 'missing'}, not a 3.0.x or 3.1.x version`,
      "give an OpenAPI 3.0 or 3.1 document (it starts with openapi: '3.0.3' or '3.1.0')",
      '#/openapi',
    );
  }
  if (paths !== undefined && (typeof paths !== 'object' || paths === null || Array.isArray(paths))) {
    throw new DocumentProblem('paths is not an object of path items', "give paths: { '/pets': { get: { ... } } }", '#/paths');
  }
  return document as OpenApiDocument;
}

/** The parser's error as a problem in the document: a syntax error, a `$ref` to nothing, a timeout. */
function parserProblem(error: unknown, settings: OpenApiSettings): DocumentProblem {
  if (error instanceof DocumentProblem) return error;
  const { code, message, path, parentPath } = (error ?? {}) as { code?: string; message?: string; path?: unknown; parentPath?: unknown };
  const first = String(message ?? error).split('\n')[0].replace(ROOT, 'the document');
  // A $ref to nothing names where it stands (parentPath); other errors may carry their path as segments.
  const pointer =
    typeof parentPath === 'string' && parentPath.startsWith('#/')
      ? parentPath
      : Array.isArray(path) && path.length > 0
        ? `#/${path.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`
        : undefined;
  switch (code) {
    case 'EPARSER':
    case 'EUNMATCHEDPARSER':
      return new DocumentProblem(`it is neither JSON nor YAML (${first})`, 'give a valid JSON or YAML document', undefined, { cause: error });
    case 'ETIMEOUT':
      return new DocumentProblem(`resolving its $refs took longer than documentTimeout (${settings.documentTimeout} ms)`, 'raise documentTimeout, or give a smaller document', undefined, { cause: error });
    case 'EMISSINGPOINTER':
    case 'EINVALIDPOINTER':
      return new DocumentProblem(`a $ref points to nothing in the document (${first})`, 'correct the $ref, or add what it names under components', pointer, { cause: error });
    default:
      return new DocumentProblem(`its $refs cannot be resolved (${first})`, 'check the document with an OpenAPI validator (e.g. `npx @redocly/cli lint`)', pointer, { cause: error });
  }
}

function causeCode(error: unknown): string {
  let current = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined;
  for (let depth = 0; current && depth < 4; depth++, current = current.cause as typeof current) {
    if (typeof current.code === 'string') return current.code;
  }
  return error instanceof Error ? error.message : String(error);
}
