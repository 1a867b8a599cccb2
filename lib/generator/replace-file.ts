import { randomBytes } from 'node:crypto';
import { lstatSync, readFileSync, rmSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Writes `content` as the file at `file` without ever writing through a link: the text goes to a new file beside it
 * (a random name, created exclusively: `wx` fails on anything already there, a link included), which is then renamed
 * over `file`. A rename replaces the directory entry itself, so a symbolic link at `file` (a cloned repository can
 * ship one, pointing at `~/.bashrc`) is replaced by the file, and its target is left as it was; a crash mid-write
 * never leaves half a file. `mode`: the permissions of the new file (default: those of the file it replaces, so a
 * configuration holding a secret stays as private as it was; else the usual 0o666 less the umask).
 */
export function replaceFile(file: string, content: string | Uint8Array, mode?: number): void {
  const temporary = path.join(path.dirname(file), `.${path.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  writeFileSync(temporary, content, { flag: 'wx', mode: mode ?? modeOf(file) ?? 0o666 });
  try {
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The permission bits of a regular file at `file` (not through a link); undefined when there is none. */
function modeOf(file: string): number | undefined {
  try {
    const stats = lstatSync(file);
    return stats.isFile() ? stats.mode & 0o777 : undefined;
  } catch {
    return undefined;
  }
}

/** The text of the regular file at `file`, never through a link (a link to a device or a pipe would hang); else undefined. */
export function readOwnFile(file: string): string | undefined {
  try {
    return lstatSync(file).isFile() ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}
