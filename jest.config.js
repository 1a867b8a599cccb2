/** @type {import('jest').Config} */
const { readFileSync } = require('node:fs');
const swc = JSON.parse(readFileSync(`${__dirname}/.swcrc`, 'utf8'));

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { ...swc, swcrc: false }],
    // jose (spec/auth), oidc-provider, openid-client and oauth4webapi (the authorization server, lib/auth/server) and
    // @apidevtools/json-schema-ref-parser (McpModule.fromOpenApi() imports it lazily to resolve $refs) are ESM-only,
    // which jest cannot require() before Node 24.9: compile them like the specs.
    '/node_modules/(jose|oidc-provider|openid-client|oauth4webapi|@apidevtools/json-schema-ref-parser)/.+\\.js$': ['@swc/jest', { ...swc, swcrc: false }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(jose|oidc-provider|openid-client|oauth4webapi|@apidevtools/json-schema-ref-parser)/)', '\\.pnp\\.[^\\/]+$'],
  moduleNameMapper: {
    '^mcp-reflect$': '<rootDir>/lib/index.ts',
    '^mcp-reflect/testing$': '<rootDir>/lib/testing/index.ts',
    '^mcp-reflect/nest$': '<rootDir>/lib/nest/index.ts',
    '^mcp-reflect/(common|redis|tasks|builtins|auth-server)$': '<rootDir>/lib/entries/$1.ts',
  },
  testTimeout: 30000,
  // Most specs wait on sockets and child processes: two workers keep a 2-core machine busy (jest's default is one).
  maxWorkers: 2,
  // redis-server, chromium, the MCP Inspector and dist/ are provided before the specs run (or the run stops, naming them).
  globalSetup: '<rootDir>/spec/support/global-setup.js',
};
