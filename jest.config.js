/** @type {import('jest').Config} */
const { readFileSync } = require('node:fs');
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }],
    // jose, oidc-provider, openid-client and oauth4webapi are ESM-only. Only this repository's specs need them compiled:
    // the specs import jose and oidc-provider themselves (hand-signed tokens, the upstream provider of spec/auth-server),
    // which jest cannot require() before Node 24.9. The library needs no transform: lib/runtime/peer.ts loads ESM-only
    // peers with Node's require where jest refuses them, and lib/runtime/peer-realm.ts makes what it hands them in
    // their realm; spec/consumers runs a consumer's jest with docs/testing.md's config, no transform, to show it.
    // arktype (with @ark/schema, @ark/util, arkregex) is ESM-only too: the Standard Schema specs import it themselves.
    '/node_modules/(jose|oidc-provider|openid-client|oauth4webapi|arktype|@ark/schema|@ark/util|arkregex)/.+\\.js$': ['@swc/jest', { ...swc, swcrc: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oidc-provider|openid-client|oauth4webapi|arktype|@ark/schema|@ark/util|arkregex)/)', '\\.pnp\\.[^\\/]+$'],
  moduleNameMapper: {
    '^mcp-reflect$': '<rootDir>/lib/index.ts',
    '^mcp-reflect/testing$': '<rootDir>/lib/testing/index.ts',
    '^mcp-reflect/nest$': '<rootDir>/lib/nest/index.ts',
    '^mcp-reflect/(common|redis|tasks|builtins|auth-server|state|inspection)$': '<rootDir>/lib/entries/$1.ts',
  },
  testTimeout: 30000,
  // Most specs wait on sockets and child processes: two workers keep a 2-core machine busy (jest's default is one).
  maxWorkers: 2,
  // redis-server, chromium, the MCP Inspector and dist/ are provided before the specs run (or the run stops, naming them).
  globalSetup: '<rootDir>/spec/support/global-setup.js',
};
