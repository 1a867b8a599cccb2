import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * `--baseline=<rev>`: mcp-reflect as it was at a git revision, measured as one more system,
 * `mcp-reflect@<short rev>`, beside the current tree's `mcp-reflect` in the same run (issue 23: "per-call
 * cost must not grow"). The library at <rev> is built into bench/baseline/<short rev>/node_modules/mcp-reflect
 * (packed, as the current one is installed). The baseline's processes run a copy of the bench's compiled code,
 * bench/baseline/<short rev>/build: Node's ordinary resolution, walking up from there, finds `mcp-reflect` in
 * bench/baseline/<short rev>/node_modules and everything else further up, in bench/node_modules, so only the
 * library differs (no resolution hook: the house rule keeps Node's private module hooks out).
 */
export const BASELINE_PREFIX = 'mcp-reflect@';

/** bench/, whether this file runs from bench/build or from a baseline's copy of it (bench/baseline/<short rev>/build). */
const BENCH = benchRoot(path.resolve(__dirname, '..'));
const REPO = path.resolve(BENCH, '..');
/** The bench's compiled code (tsc -p bench/tsconfig.json). */
const BUILD = path.join(BENCH, 'build');

function benchRoot(dir: string): string {
  const copy = path.basename(path.dirname(dir)) === 'baseline' && existsSync(path.join(dir, 'COMMIT'));
  return copy ? path.dirname(path.dirname(dir)) : dir;
}

/** The folder a baseline system's library is installed in: bench/baseline/<short rev>. */
export function baselineDir(name: string): string {
  return path.join(BENCH, 'baseline', name.slice(BASELINE_PREFIX.length));
}

export interface Baseline {
  /** The system's name: `mcp-reflect@<short rev>`. */
  readonly name: string;
  /** The revision as given (`HEAD~20`, a tag, a hash). */
  readonly rev: string;
  readonly commit: string;
  readonly subject: string;
}

/**
 * The revision to compare with: `--baseline=<rev>`, else BENCH_BASELINE, else a `mcp-reflect@<rev>` among
 * `--systems=` (so `--systems=limit,mcp-reflect,mcp-reflect@HEAD~20` alone is enough).
 */
export function baselineRev(argv: readonly string[], chosen: readonly string[] | undefined): string | undefined {
  const flag = argv.find((arg) => arg.startsWith('--baseline='))?.slice('--baseline='.length) || process.env.BENCH_BASELINE || undefined;
  const named = chosen?.filter((name) => name.startsWith(BASELINE_PREFIX)).map((name) => name.slice(BASELINE_PREFIX.length)) ?? [];
  if (named.length > 1) throw new Error(`--systems: one baseline at a time (${named.map((n) => BASELINE_PREFIX + n).join(', ')})`);
  return flag ?? named[0];
}

const git = (...args: string[]) => execFileSync('git', ['-C', REPO, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();

/**
 * Whether a `--systems=` entry names the baseline: `mcp-reflect@baseline`, or `mcp-reflect@<rev>` with any
 * revision of the same commit (the short hash, the revision as given, `HEAD~20`, a longer hash).
 */
export function namesBaseline(entry: string, baseline: Baseline): boolean {
  if (!entry.startsWith(BASELINE_PREFIX)) return false;
  const rev = entry.slice(BASELINE_PREFIX.length);
  if (entry === baseline.name || rev === 'baseline' || rev === baseline.rev) return true;
  try {
    return git('rev-parse', '--verify', '--quiet', `${rev}^{commit}`) === baseline.commit;
  } catch {
    return false;
  }
}

/** Builds (or reuses) the library at `rev` and returns its system. */
export function prepareBaseline(rev: string): Baseline {
  let commit: string;
  try {
    commit = git('rev-parse', '--verify', '--quiet', `${rev}^{commit}`);
  } catch {
    throw new Error(`--baseline: '${rev}' is not a commit of ${REPO} (give a hash, a tag, a branch or HEAD~n)`);
  }
  const short = git('rev-parse', '--short', commit);
  const subject = git('log', '-1', '--format=%s', commit);
  const name = BASELINE_PREFIX + short;
  const dir = baselineDir(name);
  const stamp = path.join(dir, 'COMMIT');
  const installed = path.join(dir, 'node_modules', 'mcp-reflect');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === commit && existsSync(path.join(installed, 'package.json'))) {
    console.error(`Baseline ${name} (${subject.slice(0, 72)}): reusing ${path.relative(REPO, installed)}`);
  } else {
    const started = Date.now();
    console.error(`Baseline ${name} (${subject.slice(0, 72)}): building the library at ${commit.slice(0, 12)}…`);
    rmSync(dir, { recursive: true, force: true });
    const source = path.join(dir, 'source');
    mkdirSync(source, { recursive: true });
    // The tree of that commit (no worktree: nothing is registered in the shared repository), built with the
    // project's own node_modules and that revision's own build script.
    const tar = execFileSync('git', ['-C', REPO, 'archive', '--format=tar', commit], { maxBuffer: 1 << 30 });
    execFileSync('tar', ['-x', '-C', source], { input: tar });
    symlinkSync(realpathSync(path.join(REPO, 'node_modules')), path.join(source, 'node_modules'), 'dir');
    run('npm', ['run', 'build', '--silent'], source);
    // Packed and unpacked, as `npm install --install-links` installs the current tree (its `files` only).
    const tgz = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: source, encoding: 'utf8' }).trim().split('\n').pop()!;
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', path.join(dir, tgz), '-C', installed, '--strip-components=1']);
    rmSync(path.join(dir, tgz));
    rmSync(source, { recursive: true, force: true });
    writeFileSync(stamp, `${commit}\n`);
    console.error(`  built in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
  warnOnDependencies(name, installed);
  placeBench(name);
  return { name, rev, commit, subject };
}

/**
 * The file of the bench's compiled code (`worker.js`, `servers/http.server.js`, …) that a process of `system`
 * runs: bench/build's, or for a baseline its copy's, from which `mcp-reflect` resolves to the baseline.
 */
export function benchFile(system: string, file: string): string {
  return path.join(system.startsWith(BASELINE_PREFIX) ? path.join(baselineDir(system), 'build') : BUILD, file);
}

/**
 * Copies the bench's compiled code (bench/build, this run's) into the baseline's folder, beside its node_modules,
 * and says once which copy of the library it resolves (a process of its own, as the baseline's are).
 */
function placeBench(name: string): void {
  const copy = path.join(baselineDir(name), 'build');
  rmSync(copy, { recursive: true, force: true });
  cpSync(BUILD, copy, { recursive: true });
  const resolved = execFileSync(process.execPath, ['-p', "require.resolve('mcp-reflect')"], { cwd: copy, encoding: 'utf8' }).trim();
  checkBaselineCopy(name, resolved);
  console.error(`  ${name} runs bench/${path.relative(BENCH, copy)}, where mcp-reflect resolves to bench/${path.relative(BENCH, resolved)}`);
}

/**
 * Throws unless `resolved` (what `require.resolve('mcp-reflect')` gave in a baseline's process) lies in the
 * baseline's own copy of the library: a process started from bench/build, or a baseline folder without the
 * library, would measure the current tree under the baseline's name.
 */
export function checkBaselineCopy(name: string, resolved: string): void {
  const root = path.join(baselineDir(name), 'node_modules', 'mcp-reflect') + path.sep;
  if (!resolved.startsWith(root)) {
    throw new Error(`${name}: mcp-reflect resolves to ${resolved}, not to the baseline's copy in ${root} (run its processes from benchFile(${JSON.stringify(name)}, …))`);
  }
}

function run(command: string, args: string[], cwd: string): void {
  try {
    execFileSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  } catch {
    throw new Error(`--baseline: \`${command} ${args.join(' ')}\` failed in ${cwd} (kept for a look; the next run rebuilds it)`);
  }
}

/**
 * The baseline uses the bench's copies of its dependencies (bench/node_modules): a revision that pinned other
 * versions is measured on the current ones, which is what is wanted for a lib/ change, but said.
 */
function warnOnDependencies(name: string, installed: string): void {
  const declared = (JSON.parse(readFileSync(path.join(installed, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
  for (const [dependency, wanted] of Object.entries(declared)) {
    const file = path.join(BENCH, 'node_modules', dependency, 'package.json');
    const version = existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version : undefined;
    if (version !== wanted.replace(/^[\^~=]/, '')) {
      console.error(`  (${name} declares ${dependency} ${wanted}; it runs on the bench's ${version ?? 'missing copy'})`);
    }
  }
}

/**
 * The mcp-reflect systems of the scenarios that measure mcp-reflect alone (its variants, event stores, bearer
 * auth): the current one, always, and the baseline when it is among the systems measured.
 */
export function reflectVersions(systems: readonly { name: string }[]): string[] {
  return ['mcp-reflect', ...systems.filter((s) => s.name.startsWith(BASELINE_PREFIX)).map((s) => s.name)];
}
