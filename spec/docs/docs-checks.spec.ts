import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** The top-level members of an exported interface, as its source declares them. */
function membersOf(file: string, name: string): string[] {
  const source = readFileSync(path.join(root, file), 'utf8');
  const start = source.indexOf(`export interface ${name}`);
  if (start === -1) throw new Error(`${file} declares no interface ${name}`);
  const members: string[] = [];
  let depth = 0;
  for (const line of source.slice(start).split('\n').slice(1)) {
    const member = depth === 0 ? /^ {2}(?:readonly )?(\w+)\??:/.exec(line) : null;
    if (member) members.push(member[1]);
    depth += (line.match(/{/g) ?? []).length - (line.match(/}/g) ?? []).length;
    if (depth < 0) break;
  }
  return members;
}

describe('docs/getting-started.md', () => {
  it('lists every option of McpModule.forRoot() in its options table', () => {
    const page = readFileSync(path.join(root, 'docs', 'getting-started.md'), 'utf8');
    const rows = new Set([...page.matchAll(/^\| `(\w+)` \|/gm)].map((match) => match[1]));
    const options = membersOf('lib/host/mcp-options.ts', 'McpModuleOptions');
    expect(options.length).toBeGreaterThan(10);
    expect(options.filter((option) => !rows.has(option))).toEqual([]);
  });
});

describe('the examples of the docs and of `mcp-reflect new`', () => {
  it('close a test client only if the set-up made one (a failed set-up must not turn into a TypeError in every test)', () => {
    const files = [...readdirSync(path.join(root, 'docs')).filter((f) => f.endsWith('.md')).map((f) => path.join('docs', f)), 'README.md', 'lib/cli/new/templates.ts'];
    const unguarded = files.filter((file) => /afterEach\(\(\) => client\.close\(\)\)/.test(readFileSync(path.join(root, file), 'utf8')));
    expect(unguarded).toEqual([]);
  });
});
