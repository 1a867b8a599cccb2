import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The installed version of an SDK package (`server`, `client`), for specs that pin what the SDK does. */
export function sdkVersion(pkg: 'server' | 'client'): string {
  // Read from disk: the packages' `exports` do not include their package.json.
  const file = path.resolve(__dirname, '..', '..', 'node_modules', '@modelcontextprotocol', pkg, 'package.json');
  return `@modelcontextprotocol/${pkg} ${(JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version}`;
}
