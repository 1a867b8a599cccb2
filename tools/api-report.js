#!/usr/bin/env node
// The API report: one API Extractor report per entry of package.json's `exports` (docs/api/<entry>.api.md), read
// from the built declarations in dist/ (run `npm run build` first). API Extractor reads them with its own bundled
// TypeScript, so the library's compiler (TypeScript 7) plays no part.
//   node tools/api-report.js          rewrites docs/api/ (`npm run api`)
//   node tools/api-report.js --check [--reports <folder>]  compares with docs/api/ (or the folder), prints the diff
//                                     and exits 1 when they differ
// spec/package/api-report.spec.ts runs the check (docs/architecture.md, "Entry points").
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const reports = path.join(root, 'docs', 'api');
const update = 'npm run build && npm run api';

/** The entries of package.json's `exports` with their declarations: `mcp-reflect`, `mcp-reflect-testing`, … */
function entries() {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  return Object.entries(manifest.exports)
    .filter(([, target]) => typeof target === 'object' && target.types)
    .map(([subpath, target]) => ({
      name: subpath === '.' ? manifest.name : `${manifest.name}${subpath.slice(1)}`,
      report: subpath === '.' ? manifest.name : `${manifest.name}-${subpath.slice(2).replace(/\//g, '-')}`,
      declarations: path.join(root, target.types),
    }));
}

/** Writes the report of every entry into `folder`; returns the file names written. */
function generate(folder) {
  const { Extractor, ExtractorConfig } = require('@microsoft/api-extractor');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-reflect-api-'));
  const written = [];
  try {
    for (const entry of entries()) {
      if (!fs.existsSync(entry.declarations)) throw new Error(`${path.relative(root, entry.declarations)} is missing: run \`npm run build\` first.`);
      const config = ExtractorConfig.prepare({
        packageJsonFullPath: path.join(root, 'package.json'),
        configObjectFullPath: undefined,
        configObject: {
          projectFolder: root,
          mainEntryPointFilePath: entry.declarations,
          compiler: {
            overrideTsconfig: {
              compilerOptions: {
                target: 'es2022',
                module: 'nodenext',
                moduleResolution: 'nodenext',
                lib: ['es2023'],
                types: ['node'],
                strict: true,
                experimentalDecorators: true,
                skipLibCheck: true,
              },
              files: [entry.declarations],
            },
          },
          apiReport: { enabled: true, reportFileName: entry.report, reportFolder: scratch, reportTempFolder: path.join(scratch, 'temp') },
          docModel: { enabled: false },
          dtsRollup: { enabled: false },
          tsdocMetadata: { enabled: false },
          messages: {
            compilerMessageReporting: { default: { logLevel: 'warning' } },
            // What the report records beside the declarations: a public signature naming a type its entry does not
            // export (the type is reachable but has no import path from that entry).
            extractorMessageReporting: {
              default: { logLevel: 'none' },
              'ae-forgotten-export': { logLevel: 'none', addToApiReportFile: true },
            },
            tsdocMessageReporting: { default: { logLevel: 'none' } },
          },
        },
      });
      const problems = [];
      const result = Extractor.invoke(config, {
        localBuild: true,
        messageCallback(message) {
          // Its own notes (`console-…`: a report created or changed) are not problems: the reports are compared below.
          if (message.category !== 'console' && (message.logLevel === 'error' || message.logLevel === 'warning')) problems.push(message.formatMessageWithLocation(root));
          message.handled = true;
        },
      });
      if (!result.succeeded || problems.length > 0) throw new Error(`API Extractor failed on ${entry.name}:\n${problems.join('\n')}`);
      const file = `${entry.report}.api.md`;
      fs.copyFileSync(path.join(scratch, file), path.join(folder, file));
      written.push(file);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return written;
}

/** The differences between the built surface and docs/api/, as a unified diff ('' when there are none). */
function check(folder = reports) {
  const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-reflect-api-check-'));
  try {
    const written = generate(fresh);
    const committed = fs.existsSync(folder) ? fs.readdirSync(folder).filter((file) => file.endsWith('.api.md')) : [];
    const diffs = [];
    for (const file of [...new Set([...written, ...committed])].sort()) {
      const before = path.join(folder, file);
      const after = path.join(fresh, file);
      if (!written.includes(file)) diffs.push(`docs/api/${file}: committed, but no entry of package.json's exports makes it`);
      else if (!committed.includes(file)) diffs.push(`docs/api/${file}: missing (entry added to package.json's exports)`);
      else if (fs.readFileSync(before, 'utf8') !== fs.readFileSync(after, 'utf8')) diffs.push(unifiedDiff(before, after, file));
    }
    return diffs.length === 0 ? '' : `${diffs.join('\n')}\nThe public surface changed. If that is meant, update the reports: ${update}`;
  } finally {
    fs.rmSync(fresh, { recursive: true, force: true });
  }
}

function unifiedDiff(before, after, file) {
  try {
    execFileSync('diff', ['-u', '--label', `docs/api/${file} (committed)`, '--label', `docs/api/${file} (built)`, before, after], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return error.stdout || `docs/api/${file} differs from the built surface`;
  }
}

module.exports = { check, generate, entries, update };

if (require.main === module) {
  if (process.argv.includes('--check')) {
    const at = process.argv.indexOf('--reports');
    const diff = check(at > 0 ? path.resolve(process.argv[at + 1]) : reports);
    if (diff) {
      console.error(diff);
      process.exit(1);
    }
    console.log('docs/api/ matches the built surface.');
  } else {
    fs.mkdirSync(reports, { recursive: true });
    for (const file of fs.readdirSync(reports)) if (file.endsWith('.api.md')) fs.rmSync(path.join(reports, file));
    for (const file of generate(reports)) console.log(`docs/api/${file}`);
  }
}
