import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { PrecompiledValidators } from 'mcp-reflect';

const FILE = path.join(__dirname, 'servers', 'mcp-validators.js');
let written = false;

/**
 * Writes the mcp-reflect system's validators compiled ahead of time, as a user's build does
 * (`mcp-reflect validators <entry> --out …`, docs/cli.md), with the installed CLI: once per bench run (in the
 * parent process), so that a file of an earlier build is never measured.
 */
export function writePrecompiled(): string {
  if (!written) {
    const cli = path.join(path.dirname(require.resolve('mcp-reflect/package.json')), 'dist', 'cli', 'main.js');
    execFileSync(process.execPath, [cli, 'validators', path.join(__dirname, 'servers', 'reflect-entry.js'), '--out', FILE, '--quiet'], { stdio: ['ignore', 'ignore', 'inherit'] });
    written = true;
  }
  return FILE;
}

/** What writePrecompiled() wrote (in a worker process). */
export function precompiledValidators(): PrecompiledValidators {
  if (!existsSync(FILE)) throw new Error(`${FILE} is missing: the bench parent writes it (writePrecompiled) before it asks for it`);
  return (require(FILE) as { validators: PrecompiledValidators }).validators;
}
