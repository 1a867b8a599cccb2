import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/**
 * ajv is loaded when the first validator is compiled, class-transformer with the first DTO class: samples/edge, started with the validators `mcp-reflect
 * validators` wrote, serves valid and invalid calls without ever loading it (only the runtime helpers its
 * generated code requires), while the same module without them loads it at bootstrap.
 */
describe('ajv and class-transformer load only when needed', () => {
  it('importing mcp-reflect loads neither, nor class-validator', () => {
    const source = "require('./lib/index.ts'); console.log(JSON.stringify(['ajv', 'class-transformer', 'class-validator'].filter((name) => Object.keys(require.cache).some((f) => f.includes('node_modules/' + name + '/')))))";
    const out = execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', source], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(out.trim())).toEqual([]);
  });

  const run = (validators: boolean, compile?: 'onFirstUse') => {
    const source = `
      const { McpFactory } = require('./lib/index.ts');
      const { Client, InMemoryTransport } = require('@modelcontextprotocol/client');
      const { EdgeModule } = require('./samples/edge/edge.module.ts');
      const { metadata } = require('./samples/edge/mcp-metadata.ts');
      (async () => {
        const app = await McpFactory.create(EdgeModule, { metadata, ${validators ? "validators: require('./samples/edge/mcp-validators.js').validators" : ''} ${compile ? `compileValidators: '${compile}'` : ''} });
        const ajvAtStart = Object.keys(require.cache).filter((f) => /node_modules\\/ajv\\/dist\\/(core|compile)/.test(f)).length;
        const [a, b] = InMemoryTransport.createLinkedPair();
        await app.connect(b);
        const client = new Client({ name: 'lazy', version: '1.0.0' });
        await client.connect(a);
        const ok = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
        const invalid = await client.callTool({ name: 'add', arguments: { a: 'two', b: 3 } });
        const loaded = (name) => Object.keys(require.cache).some((f) => f.includes('node_modules/' + name + '/'));
        const ajv = Object.keys(require.cache).filter((f) => /node_modules\\/ajv\\//.test(f)).map((f) => f.split('node_modules/ajv/')[1]);
        console.log(JSON.stringify({ ok: ok.content[0].text, invalid: invalid.content[0].text, core: ajv.filter((f) => !f.startsWith('dist/runtime/')).length, ajvAtStart, transformer: loaded('class-transformer') }));
        await client.close();
        await app.close();
        process.exit(0);
      })();`;
    const out = execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', source], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    return JSON.parse(out.trim().split('\n').pop()!) as { ok: string; invalid: string; core: number; ajvAtStart: number; transformer: boolean };
  };

  it('with precompiled validators: calls are validated, invalid ones named, and ajv itself is never loaded', () => {
    const result = run(true);
    expect(result.ok).toBe('5');
    expect(result.invalid).toContain('a: must be a number');
    expect(result.core).toBe(0);
    expect(result.transformer).toBe(false); // its tools take @Param() values: no DTO, no class-transformer
  });

  it('without them: ajv compiles the validators at bootstrap', () => {
    const result = run(false);
    expect(result.ok).toBe('5');
    expect(result.ajvAtStart).toBeGreaterThan(10);
  });

  it("with compileValidators: 'onFirstUse': the bootstrap compiles none (ajv is not loaded), the first call compiles its tool's and validates as before", () => {
    const result = run(false, 'onFirstUse');
    expect(result.ajvAtStart).toBe(0);
    expect(result.ok).toBe('5');
    expect(result.invalid).toContain('a: must be a number');
    expect(result.core).toBeGreaterThan(10);
  });
});

/**
 * Standard Schema libraries (issue 42) are optional peers the application loads: mcp-reflect only calls a schema
 * object's `~standard` interface. zod is the exception that proves nothing: the MCP SDK itself depends on it.
 */
describe('Standard Schema libraries load only in the application that uses them', () => {
  const libraries = ['valibot', '@valibot/to-json-schema', 'arktype', '@ark/schema', '@ark/util'];

  it('lib/ imports none of zod, valibot, @valibot/to-json-schema or arktype', () => {
    const files = (readdirSync(path.join(root, 'lib'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const importing = files.filter((file) => {
      const text = readFileSync(path.join(root, 'lib', file), 'utf8');
      const peer = "'(zod|valibot|arktype|@valibot\\/[^']*|@ark\\/[^']*)(\\/[^']*)?'";
      return new RegExp(`^\\s*(import|export)\\b[^;]*from\\s*${peer}|require\\(\\s*${peer}|import\\(\\s*${peer}`, 'm').test(text);
    });
    expect(files.length).toBeGreaterThan(100);
    expect(importing).toEqual([]);
  });

  it('an application without them (samples/edge, served and called) loads none of valibot or arktype', () => {
    const source = `
      const { McpFactory } = require('./lib/index.ts');
      const { Client, InMemoryTransport } = require('@modelcontextprotocol/client');
      const { EdgeModule } = require('./samples/edge/edge.module.ts');
      (async () => {
        const app = await McpFactory.create(EdgeModule);
        const [a, b] = InMemoryTransport.createLinkedPair();
        await app.connect(b);
        const client = new Client({ name: 'lazy', version: '1.0.0' });
        await client.connect(a);
        const ok = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
        const names = ${JSON.stringify(libraries)};
        const loaded = names.filter((name) => Object.keys(require.cache).some((f) => f.includes('node_modules/' + name + '/')));
        console.log(JSON.stringify({ ok: ok.content[0].text, loaded }));
        await client.close();
        await app.close();
        process.exit(0);
      })();`;
    const out = execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', source], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ ok: '5', loaded: [] });
  });

  it('an application that uses them loads them (the check above can fail)', () => {
    const source = `
      require('reflect-metadata');
      require('valibot');
      require('@valibot/to-json-schema');
      const names = ${JSON.stringify(libraries)};
      console.log(JSON.stringify(names.filter((name) => Object.keys(require.cache).some((f) => f.includes('node_modules/' + name + '/')))));`;
    const out = execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', source], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(JSON.parse(out.trim())).toEqual(['valibot', '@valibot/to-json-schema']);
  });
});
