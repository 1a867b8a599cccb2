import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from './waiting';

/**
 * The processes spec/fixtures/failed-bootstrap/wrapper.mjs starts (a launcher, as `npx pkg` is one, and the remote
 * it runs): each launcher's pid is a line of `<pidFile>.launchers`, its remote's in `<pidFile>.<launcher's pid>`.
 */
export function launched(pidFile: string): { launchers: number[]; remotes: number[] } {
  const list = `${pidFile}.launchers`;
  const launchers = existsSync(list) ? readFileSync(list, 'utf8').trim().split('\n').filter(Boolean).map(Number) : [];
  const remotes = launchers.filter((pid) => existsSync(`${pidFile}.${pid}`)).map((pid) => Number(readFileSync(`${pidFile}.${pid}`, 'utf8')));
  return { launchers, remotes };
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Waits until none of `pids` runs, failing after `timeout` ms with those left. */
export async function allGone(pids: readonly number[], timeout = 3_000): Promise<void> {
  await waitFor(() => !pids.some(alive) || undefined, { what: `processes to end: ${pids.filter(alive).join(', ')} still run`, timeout, interval: 50 });
}

/** After a failed spec: SIGKILLs every launcher and remote recorded under `dir`, so that none outlives the run. */
export function killLaunched(dir: string): void {
  if (!existsSync(dir)) return;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.launchers'))) {
    const { launchers, remotes } = launched(path.join(dir, name.slice(0, -'.launchers'.length)));
    for (const pid of [...launchers, ...remotes]) if (alive(pid)) process.kill(pid, 'SIGKILL');
  }
}
