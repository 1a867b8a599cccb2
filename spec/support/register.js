// Lets plain `node` run the TypeScript samples and fixtures (for stdio tests) through swc, with the same
// options as jest, and maps `mcp-reflect` to the sources. Used as `node -r ./spec/support/register.js x.ts`.
const Module = require('node:module');
const path = require('node:path');
const fs = require('node:fs');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const swc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
// MCP_REFLECT_NO_DECORATOR_METADATA=1 compiles the way esbuild, tsx and Vite do: decorators, but no design:* metadata.
if (process.env.MCP_REFLECT_NO_DECORATOR_METADATA === '1') swc.jsc.transform.decoratorMetadata = false;
const aliases = {
  'mcp-reflect': path.join(root, 'lib', 'index.ts'),
  'mcp-reflect/testing': path.join(root, 'lib', 'testing', 'index.ts'),
  'mcp-reflect/nest': path.join(root, 'lib', 'nest', 'index.ts'),
  'mcp-reflect/auth-server': path.join(root, 'lib', 'entries', 'auth-server.ts'),
};

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...swc, swcrc: false, filename });
  module._compile(code, filename);
};
