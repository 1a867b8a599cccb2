import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** A child process (a fresh module cache) serves an application, connects a client, and says which skills modules it loaded. */
function loaded(skills: boolean): string[] {
  const source = `
    const { McpFactory, McpModule, Module, Tool, Injectable } = require('./lib/index.ts');
    const { Client, InMemoryTransport } = require('@modelcontextprotocol/client');
    (async () => {
      class Tools { add() { return 'ok'; } }
      Injectable()(Tools);
      Tool({ description: 'add' })(Tools.prototype, 'add', Object.getOwnPropertyDescriptor(Tools.prototype, 'add'));
      const skills = ${skills ? "{ skills: { 'code-review': { 'SKILL.md': '---\\nname: code-review\\ndescription: Review.\\n---\\nSteps.\\n' } } }" : 'undefined'};
      class App {}
      Module({ imports: [McpModule.forRoot({ name: 'lazy', version: '1.0.0', ...(skills ? { skills } : {}) })], providers: [Tools] })(App);
      const app = await McpFactory.create(App, { logger: false });
      const [a, b] = InMemoryTransport.createLinkedPair();
      await app.connect(b);
      const client = new Client({ name: 'lazy', version: '1.0.0' });
      await client.connect(a);
      await client.listTools();
      console.log(JSON.stringify(Object.keys(require.cache).filter((f) => /skill/i.test(path.basename(f)) || /ext[\\\\/]skills/.test(f)).map((f) => path.relative(process.cwd(), f))));
      await client.close();
      await app.close();
      process.exit(0);
    })().catch((error) => { console.error(error); process.exit(1); });`;
  const out = execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', `const path = require('node:path');${source}`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(out.trim().split('\n').pop()!) as string[];
}

describe('skills load only with an application that serves them', () => {
  it('an application without skills loads neither the catalogue, the skills methods nor the SDK\'s skills extension', () => {
    const modules = loaded(false);
    expect(modules.filter((f) => f.startsWith('lib/'))).toEqual(['lib/server/skills/skill-shelf.ts']);
    expect(modules.filter((f) => f.includes('node_modules'))).toEqual([]);
  });

  it('an application with skills loads them', () => {
    const modules = loaded(true);
    expect(modules).toEqual(expect.arrayContaining(['lib/server/skills/skill-catalogue.ts', 'lib/server/skills/skills-handlers.ts']));
    expect(modules.some((f) => f.includes('node_modules'))).toBe(true);
  });
});
