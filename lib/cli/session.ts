import path from 'node:path';
import { createTestClient, type TestClient } from '../testing';
import { openApplication } from './application';
import { loadRootModule } from './load-entry';
import { findMetadataFile, loadMetadataFile } from './metadata-file';
import type { ValidatorUse } from '../validation';

/** `--subject <id>` and `--scopes <a,b>` of inspect and call: whom the session calls as. */
export function identityOf(options: Record<string, string | true | undefined>): SessionOptions['auth'] {
  const subject = typeof options.subject === 'string' ? options.subject : undefined;
  const scopes = typeof options.scopes === 'string' ? options.scopes.split(/[\s,]+/).filter(Boolean) : undefined;
  return subject !== undefined || scopes !== undefined ? { ...(subject !== undefined ? { subject } : {}), ...(scopes ? { scopes } : {}) } : undefined;
}

export interface SessionOptions {
  readonly entry: string;
  readonly moduleName?: string;
  /** `--metadata <file>`: the generated module to load, over any the application or the project gives. */
  readonly metadata?: string;
  /** `--subject` / `--scopes`: the caller's identity, as a verified token would give it (guards, `@Scopes()`, `ctx.auth`). */
  readonly auth?: { readonly subject?: string; readonly scopes?: readonly string[] };
  /** Told of every validator the application compiles (`mcp-reflect validators`). */
  readonly recordValidators?: (use: ValidatorUse) => void;
}

/** Where the schemas of a session came from, for `inspect` to say. */
export type TypesSource =
  | { readonly kind: 'file'; readonly file: string; readonly given: boolean }
  | { readonly kind: 'application' }
  | { readonly kind: 'none' };

/**
 * Loads the entry, bootstraps its root module (mcp-reflect's or Nest's, see openApplication) with the generated
 * types the server would use, and connects an in-memory SDK client (as createTestClient does); runs `work` with
 * it, then closes the application. While it
 * runs, console.log/info/debug go to stderr so that stdout carries only the command's output.
 *
 * The types: `--metadata <file>` when given; else those the module passes itself (`McpModule.forRoot({
 * metadata })`); else the module `mcp-reflect generate` wrote for the entry's project (findMetadataFile), which a
 * `main.ts` passes to `McpFactory.create()` — so `inspect` and `call` see the schemas the server serves.
 */
export async function withClient<T>(options: SessionOptions, work: (client: TestClient, types: TypesSource) => Promise<T>): Promise<T> {
  const restore = consoleToStderr();
  try {
    const root = loadRootModule(options.entry, options.moduleName);
    let types: TypesSource = { kind: 'none' };
    const given = options.metadata !== undefined ? loadMetadataFile(options.metadata, true) : undefined;
    if (options.metadata !== undefined) types = { kind: 'file', file: options.metadata, given: true };
    const found = given === undefined ? findMetadataFile(options.entry) : undefined;
    const fallback = found
      ? () => {
          types = { kind: 'file', file: path.relative(process.cwd(), found) || found, given: false };
          return loadMetadataFile(found, false);
        }
      : undefined;
    const opened = await openApplication(root, options.entry, {
      ...(options.recordValidators ? { recordValidators: options.recordValidators } : {}),
      ...(given !== undefined ? { metadata: given as never } : {}),
      ...(fallback ? { fallbackMetadata: fallback } : {}),
    });
    try {
      const { app, registries } = opened;
      if (types.kind === 'none' && app.inspect().generatedTypes) types = { kind: 'application' };
      // As app.listen() would: the CLI runs this one application.
      registries.warnUnprovidedComponents?.();
      const client = await createTestClient(app, options.auth ? { auth: { ...options.auth, scopes: [...(options.auth.scopes ?? [])] } } : {});
      try {
        return await work(client, types);
      } finally {
        await client.close();
      }
    } finally {
      await opened.close();
    }
  } finally {
    restore();
  }
}

function consoleToStderr(): () => void {
  const saved = { log: console.log, info: console.info, debug: console.debug };
  console.log = console.info = console.debug = console.error;
  return () => Object.assign(console, saved);
}
