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
};
// The entries of lib/entries (mcp-reflect/redis, …), as jest.config.js maps them: never dist/, or a fixture would
// mix two copies of the library (and their classes would not be one another's).
for (const file of fs.readdirSync(path.join(root, 'lib', 'entries'))) {
  aliases[`mcp-reflect/${path.basename(file, '.ts')}`] = path.join(root, 'lib', 'entries', file);
}

const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return resolve.call(this, aliases[request] ?? request, ...rest);
};

require.extensions['.ts'] = (module, filename) => {
  const source = fs.readFileSync(filename, 'utf8');
  const { code } = transformSync(source, { ...swc, swcrc: false, filename });
  module._compile(code, filename);
};
