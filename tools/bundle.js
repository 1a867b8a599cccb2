#!/usr/bin/env node
// The bundling step of `npm run build` (after tsc): the package's JavaScript becomes four files, made by esbuild
// from the JavaScript tsc emitted (tsc stays the compiler: decorator metadata is tsc's `__metadata(...)` calls,
// which esbuild copies as they are), each with a source map chained through tsc's to lib/*.ts:
//   dist/mcp-reflect.js       every entry but Nest's and the CLI: `mcp-reflect`, /testing, …
//   dist/mcp-reflect-base.js  the modules the SDK-free entries reach (/common, /tasks, /redis, /builtins, /state, /auth-server):
//                             one of them alone parses ~250 KB, not the whole
//   dist/mcp-reflect-nest.js  lib/nest (`mcp-reflect/nest`): it requires @nestjs/*, which an application without
//                             Nest has not installed, so a bundler (wrangler, esbuild) bundling `mcp-reflect` must
//                             never meet it
//   dist/mcp-reflect-cli.js   lib/cli (the bin and `mcp-reflect dev`'s process)
// - Each module of lib/ is in ONE of them, once: esbuild cannot split CommonJS output, so a module that a part
//   requires from another part is not copied but required from its owner (`require("./mcp-reflect.js").module(id)`):
//   `instanceof` and module-level state (registries, symbols) across `mcp-reflect`, `/testing`, `/nest`, … hold.
// - Lazy: esbuild wraps each CommonJS module in a closure run on its first require(), so an entry costs only the
//   modules it reaches, and a require() inside a function (the HTTP transport, the proxy, OpenAPI, the auth server)
//   still runs only when called. The SDK, every dependency and every peer stay external requires, where tsc left them.
// - Each public entry file (dist/index.js, dist/testing/index.js, dist/entries/*.js, dist/nest/index.js) is a shim
//   that requires its part, with its export names written the way tsc writes them (`Object.defineProperty(exports,
//   "X", { enumerable: true, get: … })`): Node's CommonJS lexer reads them, so an ES module's `import { Tool } from
//   'mcp-reflect'` keeps working. No second, ESM copy: one copy, no dual-package hazard (docs/architecture.md,
//   "Entry points").
// - The bin (dist/cli/main.js) is a shim too, and so is dist/dev-runner.js: the dev command starts the runner from
//   the file beside its own code (`__dirname`), which is dist/ once bundled.
// - The other files tsc emitted (.js and .js.map) are removed; the declarations (.d.ts) stay tsc's.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const root = path.resolve(__dirname, '..');
const dist = path.join(root, 'dist');

/** The entries that load no SDK: what they reach is the part `base`, so that one of them alone parses no more. */
const BASE_ENTRIES = ['entries/common.js', 'entries/tasks.js', 'entries/redis.js', 'entries/builtins.js', 'entries/state.js', 'entries/inspection.js', 'entries/auth-server.js'];
const base = new Set();

/** The parts, in build order: a part's map of modules lists what the parts built before it require of it. */
const parts = [
  { name: 'cli', file: 'mcp-reflect-cli.js', owns: (id) => id.startsWith('cli/') },
  { name: 'nest', file: 'mcp-reflect-nest.js', owns: (id) => id.startsWith('nest/') },
  { name: 'main', file: 'mcp-reflect.js', owns: (id) => !id.startsWith('cli/') && !id.startsWith('nest/') && !base.has(id) },
  { name: 'base', file: 'mcp-reflect-base.js', owns: (id) => base.has(id) },
];
const owner = (id) => parts.find((part) => part.owns(id));

/** The modules of tsc's output the SDK-free entries reach (esbuild's metafile of a bundle not written). */
async function baseModules() {
  const result = await esbuild.build({ entryPoints: BASE_ENTRIES.map((id) => path.join(dist, id)), bundle: true, write: false, outdir: dist, platform: 'node', format: 'cjs', packages: 'external', metafile: true, logLevel: 'silent', absWorkingDir: root });
  for (const input of Object.keys(result.metafile.inputs)) {
    const id = path.relative(dist, path.resolve(root, input)).split(path.sep).join('/');
    if (!id.startsWith('..') && id.endsWith('.js')) base.add(id);
  }
  const stray = [...base].filter((id) => id.startsWith('cli/') || id.startsWith('nest/'));
  if (stray.length) throw new Error(`tools/bundle.js: the SDK-free entries reach ${stray.join(', ')}`);
}

/** Entry name → the module tsc emitted for it (relative to dist/); `shim` is where its shim goes (default: there). */
const entries = {
  '.': { id: 'index.js' },
  testing: { id: 'testing/index.js' },
  nest: { id: 'nest/index.js' },
  common: { id: 'entries/common.js' },
  redis: { id: 'entries/redis.js' },
  tasks: { id: 'entries/tasks.js' },
  builtins: { id: 'entries/builtins.js' },
  'auth-server': { id: 'entries/auth-server.js' },
  state: { id: 'entries/state.js' },
  inspection: { id: 'entries/inspection.js' },
  cli: { id: 'cli/main.js', bin: true },
  'dev-runner': { id: 'cli/dev-runner.js', shim: 'dev-runner.js', process: true },
};

/** The names each public entry exports, read from tsc's files in a process of their own (before they are replaced). */
function exportNames() {
  const publicEntries = Object.entries(entries).filter(([, entry]) => !entry.bin && !entry.process);
  const source = `const out = {}; for (const [name, file] of ${JSON.stringify(publicEntries.map(([name, e]) => [name, e.id]))}) out[name] = Object.keys(require(require('node:path').join(${JSON.stringify(dist)}, file))); process.stdout.write(JSON.stringify(out));`;
  return JSON.parse(execFileSync(process.execPath, ['-e', source], { encoding: 'utf8' }));
}

/** The generated entry of a part: its modules that entries or other parts require, each run only when asked for. */
function entrySource(ids) {
  const cases = [...ids].sort().map((id) => `    case ${JSON.stringify(id)}: return require(${JSON.stringify(`./${id}`)});`);
  return `"use strict";\n// Generated by tools/bundle.js: the modules of this part that entries and other parts require.\nexports.module = function (id) {\n  switch (id) {\n${cases.join('\n')}\n  }\n  throw new Error("mcp-reflect: no module " + id + " in this bundle");\n};\n`;
}

/** Resolves a relative require() of tsc's output that lands in another part to a require() of that part's file. */
function partsPlugin(part, needs) {
  return {
    name: 'mcp-reflect-parts',
    setup(build) {
      build.onResolve({ filter: /^\.\.?\// }, async (args) => {
        if (args.namespace === 'other-part') return { path: args.path, external: true };
        if (args.pluginData?.plain || !args.importer.startsWith(dist)) return undefined;
        const resolved = await build.resolve(args.path, { resolveDir: args.resolveDir, kind: args.kind, importer: args.importer, pluginData: { plain: true } });
        if (resolved.errors.length) return { errors: resolved.errors };
        const id = path.relative(dist, resolved.path).split(path.sep).join('/');
        if (id.startsWith('..') || !id.endsWith('.js')) return resolved;
        const other = owner(id);
        if (other === part) return resolved;
        needs.get(other).add(id);
        return { path: id, namespace: 'other-part', pluginData: other };
      });
      build.onLoad({ filter: /.*/, namespace: 'other-part' }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(`./${args.pluginData.file}`)}).module(${JSON.stringify(args.path)});\n`,
        loader: 'js',
      }));
    },
  };
}

function shim(name, entry, names) {
  const target = path.join(dist, entry.shim ?? entry.id);
  let file = path.relative(path.dirname(target), path.join(dist, owner(entry.id).file)).split(path.sep).join('/');
  if (!file.startsWith('.')) file = `./${file}`;
  const load = `require(${JSON.stringify(file)}).module(${JSON.stringify(entry.id)})`;
  const label = name === '.' ? 'mcp-reflect' : `mcp-reflect/${name}`;
  let text;
  if (entry.bin) text = `#!/usr/bin/env node\n"use strict";\n// The mcp-reflect CLI: its code is in ${file} (tools/bundle.js).\nconst cli = ${load};\nmodule.exports = cli;\nif (require.main === module) void cli.main();\n`;
  else if (entry.process) text = `"use strict";\n// The process of \`mcp-reflect dev\`: its code is in ${file} (tools/bundle.js).\n${load};\n`;
  else {
    const lines = names.map((n) => `Object.defineProperty(exports, ${JSON.stringify(n)}, { enumerable: true, get: function () { return m.${n}; } });`);
    text = `"use strict";\n// ${label}: its code is in ${file} (tools/bundle.js); the names below are for ES modules' named imports.\nObject.defineProperty(exports, "__esModule", { value: true });\nconst m = ${load};\n${lines.join('\n')}\n`;
  }
  return { target, text };
}

function strays(dir, keep) {
  for (const item of fs.readdirSync(dir, { withFileTypes: true })) {
    const file = path.join(dir, item.name);
    if (item.isDirectory()) {
      strays(file, keep);
      if (fs.readdirSync(file).length === 0) fs.rmdirSync(file);
    } else if (/\.js(\.map)?$/.test(item.name) && !keep.has(file)) fs.rmSync(file);
  }
}

async function main() {
  if (fs.readFileSync(path.join(dist, 'index.js'), 'utf8').includes('(tools/bundle.js)')) {
    throw new Error('tools/bundle.js: dist/ is bundled already (dist/index.js is a shim); run `npm run build`, which runs tsc first.');
  }
  const names = exportNames();
  await baseModules();
  for (const list of Object.values(names)) {
    const odd = list.find((n) => !/^[A-Za-z_$][\w$]*$/.test(n));
    if (odd) throw new Error(`tools/bundle.js: export ${odd} is not an identifier; the shims' getters (m.${odd}) would not parse.`);
  }
  const needs = new Map(parts.map((part) => [part, new Set(Object.values(entries).filter((e) => owner(e.id) === part).map((e) => e.id))]));
  const report = [];
  for (const part of parts) {
    const entry = path.join(dist, `.bundle-${part.name}.js`);
    fs.writeFileSync(entry, entrySource(needs.get(part)));
    try {
      const result = await esbuild.build({
        entryPoints: [entry],
        outfile: path.join(dist, part.file),
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'es2022', // what tsc emitted: nothing is lowered
        packages: 'external', // the SDK, dependencies and peers: required where tsc left them
        sourcemap: 'linked', // chained through tsc's maps (their sourceMappingURL comments) to lib/*.ts
        sourcesContent: true,
        logLevel: 'warning',
        logOverride: { 'unsupported-require-call': 'silent' }, // lib/cli/load-entry.ts requires the user's file by its path
        metafile: true,
        plugins: [partsPlugin(part, needs)],
      });
      const modules = Object.keys(result.metafile.inputs).filter((input) => !input.startsWith('other-part:')).length;
      report.push(`dist/${part.file} (${(fs.statSync(path.join(dist, part.file)).size / 1024).toFixed(0)} KB, ${modules} modules)`);
    } finally {
      fs.rmSync(entry);
    }
  }
  const shims = Object.entries(entries).map(([name, entry]) => shim(name, entry, names[name] ?? []));
  const keep = new Set([...parts.flatMap((part) => [path.join(dist, part.file), path.join(dist, `${part.file}.map`)]), ...shims.map((s) => s.target)]);
  strays(dist, keep);
  for (const { target, text } of shims) {
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text, { mode: target.endsWith('main.js') ? 0o755 : 0o644 });
  }
  process.stdout.write(`tools/bundle.js: ${report.join(', ')} and ${shims.length} shims\n`);
}

main().catch((error) => {
  process.stderr.write(`${error.stack ?? error}\n`);
  process.exit(1);
});
