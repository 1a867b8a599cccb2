// What global-setup.js installs into tools/ and the specs rely on, and how both tell whether it is current:
// a folder installed as its lockfile pins it, and the copy of mcp-reflect in tools/nest12 made of the build in dist/.
const { createHash } = require('node:crypto');
const { existsSync, readdirSync, readFileSync } = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..', '..');

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Whether `tools/<name>` has every package of its package-lock.json at the locked version, as npm recorded
 * the install (node_modules/.package-lock.json). False when it is missing, or older than a changed lockfile.
 */
function installedAsLocked(name) {
  const dir = path.join(root, 'tools', name);
  const locked = readJson(path.join(dir, 'package-lock.json'));
  const installed = readJson(path.join(dir, 'node_modules', '.package-lock.json'));
  if (!locked || !installed) return false;
  // An optional package npm did not install (a binary for another platform: @oven/bun-darwin-x64 …) is not missing.
  return Object.entries(locked.packages).every(
    ([key, entry]) =>
      key === '' ||
      (entry.optional && !installed.packages[key]) ||
      (installed.packages[key]?.version === entry.version && existsSync(path.join(dir, key, 'package.json'))),
  );
}

/** A digest of a package folder as a user gets it: its package.json and every file of its dist/. */
function packageDigest(dir) {
  const hash = createHash('sha256');
  const add = (file) => {
    hash.update(`${path.relative(dir, file)}\0`);
    hash.update(readFileSync(file));
  };
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const file = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(file);
      else add(file);
    }
  };
  if (!existsSync(path.join(dir, 'package.json')) || !existsSync(path.join(dir, 'dist'))) return undefined;
  add(path.join(dir, 'package.json'));
  walk(path.join(dir, 'dist'));
  return hash.digest('hex');
}

/** The mcp-reflect that tools/nest12 installs (`file:../..`, a copy: --install-links). */
const nest12Copy = path.join(root, 'tools', 'nest12', 'node_modules', 'mcp-reflect');

/** Whether that copy is the current build: the same package.json and dist/ as this tree. */
function nest12CopyIsCurrent() {
  const built = packageDigest(root);
  return built !== undefined && built === packageDigest(nest12Copy);
}

/**
 * What changed in mcp-reflect's dependencies since tools/nest12/package-lock.json was written, or undefined. npm ci
 * installs what the lockfile pins even when the library now asks for other versions, so the copy would run on the
 * old ones: the lockfile is written again instead (a change of the repository, to commit).
 */
function nest12LockDrift() {
  const library = readJson(path.join(root, 'package.json'));
  const locked = readJson(path.join(root, 'tools', 'nest12', 'package-lock.json'))?.packages?.['node_modules/mcp-reflect'] ?? {};
  const changed = ['dependencies', 'peerDependencies', 'peerDependenciesMeta'].filter(
    (field) => JSON.stringify(library[field] ?? {}) !== JSON.stringify(locked[field] ?? {}),
  );
  if (changed.length === 0) return undefined;
  return (
    `tools/nest12/package-lock.json pins other ${changed.join(', ')} of mcp-reflect than package.json gives: ` +
    'write it again with npm install --prefix tools/nest12 --install-links --no-audit --no-fund, and commit it'
  );
}

module.exports = { installedAsLocked, nest12Copy, nest12CopyIsCurrent, nest12LockDrift, root };
