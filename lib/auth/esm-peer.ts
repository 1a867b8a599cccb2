/**
 * Requires an ESM-only package (jose, oidc-provider, openid-client) as Node ≥ 20.19 and ≥ 22.12 require them.
 * `load` is the plain `require('<name>')`, so that bundlers see the dependency. A module system that is not
 * Node's can refuse it — jest's, which loads node_modules as CommonJS and answers ERR_REQUIRE_ESM (a user's auth
 * specs would need a transform for each of these packages) — and then Node's own loader loads it.
 */
export function requireEsm<T>(name: string, load: () => unknown): T {
  try {
    return load() as T;
  } catch (error) {
    if ((error as { code?: string }).code !== 'ERR_REQUIRE_ESM' && (error as { name?: string }).name !== 'SyntaxError') throw error;
    const { Module } = require('node:module') as { Module: { _load(request: string, parent: unknown): unknown } };
    return Module._load(name, module) as T;
  }
}
