// Lets plain `node` run the TypeScript samples and fixtures (for stdio tests) through swc, with the same
// options as jest. Used as `node -r ./spec/support/register.js x.ts`.
//
// `.ts` files are compiled through pirates (the require-hook library of jest and @babel/register), as the CLI's
// loader does (lib/cli/typescript-loader.ts): no private hook of Node's module system. The imports of `mcp-reflect`
// and its subpaths are pointed at the sources as swc compiles them (`jsc.paths`, as tsconfig's `paths`): never
// dist/, or a fixture would mix two copies of the library (and their classes would not be one another's). A plain
// script (`node -e`) requires the sources by path (`require('./lib/index.ts')`).
const fs = require('node:fs');
const path = require('node:path');
const { addHook } = require('pirates');
const { transformSync } = require('@swc/core');

const root = path.resolve(__dirname, '..', '..');
const swc = JSON.parse(fs.readFileSync(path.join(root, '.swcrc'), 'utf8'));
// MCP_REFLECT_NO_DECORATOR_METADATA=1 compiles the way esbuild, tsx and Vite do: decorators, but no design:* metadata.
if (process.env.MCP_REFLECT_NO_DECORATOR_METADATA === '1') swc.jsc.transform.decoratorMetadata = false;

const paths = {
  'mcp-reflect': ['lib/index.ts'],
  'mcp-reflect/testing': ['lib/testing/index.ts'],
  'mcp-reflect/nest': ['lib/nest/index.ts'],
};
// The entries of lib/entries (mcp-reflect/redis, …), as jest.config.js maps them.
for (const file of fs.readdirSync(path.join(root, 'lib', 'entries'))) {
  paths[`mcp-reflect/${path.basename(file, '.ts')}`] = [`lib/entries/${file}`];
}
const options = { ...swc, swcrc: false, jsc: { ...swc.jsc, baseUrl: root, paths } };

addHook((source, filename) => transformSync(source, { ...options, filename }).code, { exts: ['.ts'], ignoreNodeModules: true });
