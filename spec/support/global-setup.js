// Provides what the specs need before any runs, so that `npm test` passes on a fresh machine (docs/testing.md):
// Debian's redis-server and chromium (installed with apt-get when missing, as .ci/run does), the pinned MCP
// Inspector of tools/conformance (npm), the build in dist/ (the CLI and package specs run it), and for the Nest
// versions spec Nest 12 with a copy of that build (tools/nest12) and Node 22 (tools/node22), by their lockfiles;
// server-everything (tools/everything) and Python FastMCP 4 in a virtual environment (tools/fastmcp-py) for the proxy specs;
// Bun, Deno and wrangler with workerd (tools/bun, tools/deno, tools/workerd, tools/wrangler-node20) for the runtime specs.
// What cannot be provided (no root, no sudo, no network) stops the run here, naming what to install: no spec skips for it.
const { spawnSync } = require('node:child_process');
const { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const { installedAsLocked, nest12Copy, nest12CopyIsCurrent, nest12LockDrift } = require('./installed-tools');

const root = path.resolve(__dirname, '..', '..');

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).status === 0;
}

function run(command, args, what) {
  const started = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  if (result.status !== 0) return `${what} failed: ${`${result.stderr ?? ''}\n${result.stdout ?? ''}`.trim().split('\n').slice(-5).join(' ') || result.error?.message}`;
  process.stderr.write(`  ${what}: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return undefined;
}

/**
 * Installs Debian packages for `command` when it is missing (or when `present()` says what it needs is); an error
 * text when it cannot.
 */
function debian(command, packages, present = () => has(command)) {
  if (present()) return undefined;
  const root = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = root ? [] : has('sudo') && spawnSync('sudo', ['-n', 'true']).status === 0 ? ['sudo', '-n'] : undefined;
  const fix = `install it: ${root ? '' : 'sudo '}apt-get install -y ${packages.join(' ')}`;
  if (!sudo || !has('apt-get')) return `${command} is missing and cannot be installed here (no apt-get${root ? '' : ', or no root and no password-less sudo'}): ${fix}`;
  process.stderr.write(`\n  ${command} is missing: installing Debian's ${packages.join(', ')}\n`);
  const apt = (...args) => (sudo.length ? run(sudo[0], [...sudo.slice(1), 'apt-get', ...args], `apt-get ${args[0]}`) : run('apt-get', args, `apt-get ${args[0]}`));
  const failed = apt('update', '-qq') ?? apt('install', '-y', '-qq', ...packages);
  if (failed || !present()) return `${command} could not be installed (${failed ?? 'not found after the install'}): ${fix}`;
  // redis-server's package starts a system service; the specs start their own on free ports.
  if (command === 'redis-server') spawnSync('sh', ['-c', `${sudo.join(' ')} service redis-server stop || ${sudo.join(' ')} systemctl stop redis-server`], { stdio: 'ignore' });
  return undefined;
}

/** Whether dist/ is missing or older than a file of lib/. */
function stale() {
  const built = path.join(root, 'dist', 'cli', 'main.js');
  if (!existsSync(built)) return true;
  const since = statSync(built).mtimeMs;
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((entry) => {
      const file = path.join(dir, entry.name);
      return entry.isDirectory() ? newer(file) : statSync(file).mtimeMs > since;
    });
  return newer(path.join(root, 'lib'));
}

/**
 * Nest 12 as tools/nest12's lockfile pins it, and its copy of mcp-reflect (`file:../..` with --install-links) made
 * of dist/ as it is now: installed after the build, and the copy alone made again when only the build changed.
 * An error text when it cannot be. Without a build (it failed, and said so) there is nothing to copy: the Nest
 * versions spec then fails, naming it.
 */
function nest12() {
  if (!existsSync(path.join(root, 'dist', 'nest', 'index.js'))) return undefined;
  const drift = nest12LockDrift();
  if (drift) return drift;
  let failed;
  if (!installedAsLocked('nest12')) {
    failed = run('npm', ['ci', '--prefix', 'tools/nest12', '--install-links', '--no-audit', '--no-fund'], 'npm ci --prefix tools/nest12 --install-links (Nest 12, a copy of mcp-reflect)');
  } else if (!nest12CopyIsCurrent()) {
    rmSync(nest12Copy, { recursive: true, force: true });
    failed = run('npm', ['install', '--prefix', 'tools/nest12', '--install-links', '--no-audit', '--no-fund', '--no-save'], 'npm install --prefix tools/nest12 --install-links (a copy of the new build)');
  }
  if (failed) return failed;
  return nest12CopyIsCurrent() ? undefined : `${path.relative(root, nest12Copy)} is not a copy of dist/ after its install: run npm ci --prefix tools/nest12 --install-links`;
}

/**
 * Python FastMCP 4 (tools/fastmcp-py, proxied by spec/proxy): a virtual environment made with python3 -m venv and
 * the lock installed with pip, from the indexes pip is configured with (a local mirror when the machine has one:
 * then pypi.org is not asked). Made again when the lock changes. An error text when it cannot be.
 */
function fastmcpPy() {
  const dir = path.join(root, 'tools', 'fastmcp-py');
  const lock = path.join(dir, 'requirements.lock.txt');
  const venv = path.join(dir, '.venv');
  const stamp = path.join(venv, 'installed-lock.txt');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === readFileSync(lock, 'utf8')) return undefined;
  // Python 3 with venv (Debian splits venv into python3-venv): installed when missing, as redis-server is.
  const python = debian('python3', ['python3', 'python3-venv'], () => has('python3') && spawnSync('python3', ['-c', 'import ensurepip, venv'], { stdio: 'ignore' }).status === 0);
  if (python) return `${python} (tools/fastmcp-py needs Python 3.10 or later with venv)`;
  rmSync(venv, { recursive: true, force: true });
  const made = run('python3', ['-m', 'venv', venv], 'python3 -m venv tools/fastmcp-py/.venv');
  if (made) return `${made} (install python3-venv, e.g. apt-get install -y python3-venv)`;
  const config = spawnSync('python3', ['-m', 'pip', 'config', 'list'], { encoding: 'utf8' }).stdout ?? '';
  const extra = /extra-index-url='([^']+)'/.exec(config)?.[1].split(/\s+/).filter(Boolean) ?? [];
  const local = extra.filter((url) => url.startsWith('file:'));
  const indexes = local.length > 0 ? ['--index-url', local[0], ...local.slice(1).flatMap((url) => ['--extra-index-url', url])] : [];
  const failed = run(path.join(venv, 'bin', 'pip'), ['install', '--quiet', '--disable-pip-version-check', ...indexes, '-r', lock], 'pip install -r tools/fastmcp-py/requirements.lock.txt (Python FastMCP 4)');
  if (failed) return failed;
  writeFileSync(stamp, readFileSync(lock, 'utf8'));
  return undefined;
}

module.exports = async function globalSetup() {
  const problems = [
    debian('redis-server', ['redis-server']),
    debian('chromium', ['chromium', 'fonts-dejavu-core']),
    existsSync(path.join(root, 'tools', 'conformance', 'node_modules', '@modelcontextprotocol', 'inspector'))
      ? undefined
      : run('npm', ['install', '--prefix', 'tools/conformance', '--no-audit', '--no-fund', '--no-save'], 'npm install --prefix tools/conformance (the MCP Inspector)'),
  ];
  // The CLI specs run the build too: it is made again when a source is newer than it. A source that does not
  // compile (type errors while you work) leaves no build behind: those specs fail, naming the file, and the rest run.
  if (stale()) {
    const failed = run('npm', ['run', 'build', '--silent'], 'npm run build (dist/, for the CLI specs)');
    if (failed) {
      rmSync(path.join(root, 'dist'), { recursive: true, force: true });
      process.stderr.write(`\n  ${failed}\n  The specs of the built CLI will fail until it compiles.\n`);
    }
  }
  problems.push(nest12(), installedAsLocked('node22') ? undefined : run('npm', ['ci', '--prefix', 'tools/node22', '--no-audit', '--no-fund'], 'npm ci --prefix tools/node22 (Node 22)'));
  // The official reference server, proxied by spec/proxy over stdio and Streamable HTTP.
  problems.push(
    installedAsLocked('everything')
      ? undefined
      : run('npm', ['ci', '--prefix', 'tools/everything', '--no-audit', '--no-fund'], 'npm ci --prefix tools/everything (the reference server-everything)'),
  );
  problems.push(fastmcpPy());
  // The runtimes of spec/runtimes, from their npm packages: Bun, Deno, and workerd through wrangler (its esbuild bundles the samples).
  // wrangler-node20: the wrangler npm installs on Node 20 (the last whose engines allow it), run on the machine's Node 20.
  for (const [tool, what] of [['bun', 'Bun'], ['deno', 'Deno'], ['workerd', 'wrangler and workerd'], ['wrangler-node20', 'the wrangler of Node 20']]) {
    problems.push(installedAsLocked(tool) ? undefined : run('npm', ['ci', '--prefix', `tools/${tool}`, '--no-audit', '--no-fund'], `npm ci --prefix tools/${tool} (${what})`));
  }
  const failures = problems.filter(Boolean);
  if (failures.length > 0) throw new Error(`npm test cannot run every spec on this machine:\n- ${failures.join('\n- ')}`);
};
