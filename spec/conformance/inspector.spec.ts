import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The conformance sample over stdio, driven by the official MCP Inspector CLI (pinned in tools/conformance,
 * with the Node 22 it needs). CI installs the tools before the tests (`npm ci --prefix tools/conformance`).
 */
const root = path.resolve(__dirname, '..', '..');
const tools = path.join(root, 'tools', 'conformance', 'node_modules');
const node22 = path.join(tools, '.bin', 'node');
const inspector = path.join(tools, '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const installed = existsSync(node22) && existsSync(inspector);

// spec/support/global-setup.js installs the tools when missing (or stops the run): the spec never skips.
if (!installed) throw new Error('The MCP Inspector of tools/conformance is not installed: npm install --prefix tools/conformance (npm test does it).');

describe('samples/everything over stdio, driven by the MCP Inspector CLI', () => {
  const catalog = mkdtempSync(path.join(tmpdir(), 'inspector-'));
  afterAll(() => rmSync(catalog, { recursive: true, force: true }));

  const inspect = (...args: string[]): any => {
    const server = ['--', process.execPath, '-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'samples', 'everything', 'main.ts')];
    const output = execFileSync(node22, [inspector, '--cli', ...args, ...server], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, MCP_CATALOG_PATH: path.join(catalog, 'mcp.json') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return JSON.parse(output.slice(output.indexOf('{')));
  };

  it('lists the tools', () => {
    const { tools } = inspect('--method', 'tools/list');
    expect(tools.map((t: { name: string }) => t.name)).toEqual(
      expect.arrayContaining(['test_simple_text', 'test_tool_with_progress', 'test_sampling', 'json_schema_2020_12_tool']),
    );
    expect(tools.every((t: { description: string }) => t.description.length > 0)).toBe(true);
  });

  it('calls a tool', () => {
    const result = inspect('--method', 'tools/call', '--tool-name', 'test_simple_text');
    expect(result.content).toEqual([{ type: 'text', text: 'This is a simple text response for testing.' }]);
  });

  it('reads a resource through a template', () => {
    const result = inspect('--method', 'resources/read', '--uri', 'test://template/123/data');
    expect(JSON.parse(result.contents[0].text)).toEqual({ id: '123', templateTest: true, data: 'Data for ID: 123' });
  });

  it('gets a prompt with arguments', () => {
    const result = inspect('--method', 'prompts/get', '--prompt-name', 'test_prompt_with_arguments', '--prompt-args', 'arg1=a', 'arg2=b');
    expect(result.messages[0].content.text).toBe("Prompt with arguments: arg1='a', arg2='b'");
  });
});
