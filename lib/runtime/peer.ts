import { ErrorCode, McpReflectError } from '../errors';

/**
 * What a peer is needed for, for the message when it is missing: `feature` reads in a sentence ("McpModule.proxy()
 * connecting to a remote MCP server"); `install` is the command that fixes it (default `npm install <name>`).
 */
export interface PeerUse {
  readonly feature: string;
  readonly install?: string;
}

type Require = (id: string) => unknown;

/**
 * The one loader of the packages mcp-reflect needs only for some features (optional peers: oidc-provider,
 * openid-client, bullmq, @apidevtools/json-schema-ref-parser, @opentelemetry/api) and of the ESM-only ones
 * (jose, TypeScript 7's API).
 *
 * - The name is required through `createRequire`, never as a literal require of the name nor a dynamic import: a bundler
 *   (esbuild `--bundle` with no `--external`, wrangler) leaves the call alone, so a bundle of an application that
 *   does not use the feature resolves without the package; an application that uses it finds it in node_modules
 *   at run time.
 * - Node ≥ 20.19 and ≥ 22.12 require() ES modules. A module system that is not Node's may refuse one: jest's
 *   registry loads node_modules as CommonJS (ERR_REQUIRE_ESM, or a SyntaxError at `export`). Then the package is
 *   required through the host process's own `createRequire` (the `process` of the context jest runs its sandbox
 *   in, through `vm.runInThisContext`), so a consumer's jest needs no transform and no --experimental-vm-modules.
 *   Such a peer runs in the host's realm: what the caller hands it goes through ./peer-realm.ts where the peer
 *   checks `constructor === Object` or `instanceof` (oidc-provider).
 * - A missing package raises OPTIONAL_DEPENDENCY_MISSING naming it, the feature that needs it and the install.
 */
export function loadPeer<T>(name: string, use: PeerUse): T {
  return load(name, use, () => moduleRequire()(name)) as T;
}

/**
 * A dependency of mcp-reflect that is ESM-only or must be bundled with it (jose; the SDK client): `literal` is the
 * plain `require('<name>')`, so that bundlers include it; under a module system that refuses ESM (jest's) the
 * host's require loads it, as in {@link loadPeer}.
 */
export function loadDependency<T>(name: string, use: PeerUse, literal: () => unknown): T {
  return load(name, use, literal) as T;
}

/** A file by absolute path or URL (TypeScript 7's ESM API for `mcp-reflect generate`), with the host's require when needed. */
export function loadFile<T>(file: string, use: PeerUse): T {
  return load(file, use, () => moduleRequire()(file)) as T;
}

function load(name: string, use: PeerUse, first: () => unknown): unknown {
  try {
    try {
      return first();
    } catch (error) {
      if (!refusedEsm(error)) throw error;
      const loaded = hostRequire()(name);
      if ((typeof loaded === 'object' && loaded !== null) || typeof loaded === 'function') loadedByHost.add(loaded);
      return loaded;
    }
  } catch (error) {
    if (!missing(error, name)) throw error;
    throw new McpReflectError(
      ErrorCode.OptionalDependencyMissing,
      `Cannot load '${name}', which ${use.feature} needs: it is not installed (an optional peer dependency of mcp-reflect, installed by the applications that use the feature).\n` +
        `Fix: ${use.install ?? `npm install ${name}`}`,
      { cause: error },
    );
  }
}

/** An ES module refused by a CommonJS-only loader (jest's registry; Node before 20.19). */
function refusedEsm(error: unknown): boolean {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  return code === 'ERR_REQUIRE_ESM' || name === 'SyntaxError';
}

/** The package itself is missing (not one of its own dependencies, which is its installation's problem). */
function missing(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${name}'`);
}

/** Where names are resolved from: this package (its node_modules and the application's above it). */
function here(): string {
  return typeof __filename === 'string' ? __filename : `${process.cwd()}/`;
}

/** The require of the module system that loaded mcp-reflect (jest's own under jest: it honours jest.mock). */
function moduleRequire(): Require {
  const { createRequire } = require('node:module') as typeof import('node:module');
  return createRequire(here());
}

/** The peers required through {@link hostRequire}: they run in the host's realm, not in the caller's. */
const loadedByHost = new WeakSet<object>();

/**
 * The host realm's `Object` and `Array` when `peer` (what a loader of this file returned) was required by the host
 * process outside the caller's realm (under jest); undefined when it runs in the caller's realm.
 */
export function hostRealmOf(peer: object): { readonly Object: ObjectConstructor; readonly Array: ArrayConstructor } | undefined {
  if (!loadedByHost.has(peer)) return undefined;
  const { runInThisContext } = require('node:vm') as typeof import('node:vm');
  return runInThisContext('({ Object, Array })') as { Object: ObjectConstructor; Array: ArrayConstructor };
}

/** Node's own require, from the host process even inside a sandbox whose globals are not Node's (jest's vm context). */
function hostRequire(): Require {
  const { runInThisContext } = require('node:vm') as typeof import('node:vm');
  const host = runInThisContext('process') as NodeJS.Process;
  const { createRequire } = host.getBuiltinModule('node:module') as typeof import('node:module');
  return createRequire(here());
}
