import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createTestClient } from 'mcp-reflect/testing';
import { CliAppModule } from '../fixtures/cli-app';

const root = path.resolve(__dirname, '..', '..');
const built = path.join(root, 'dist', 'cli', 'main.js');
const app = 'spec/fixtures/cli-app.ts';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as a process: its TypeScript source through spec/support/register.js, or the build in dist/. */
const runners = [
  { name: 'the source (lib/cli/main.ts)', argv: ['-r', './spec/support/register.js', 'lib/cli/main.ts'] },
  // spec/support/global-setup.js builds dist/ before the specs run.
  { name: 'the build (dist/cli/main.js)', argv: [built] },
];

function cli(argv: readonly string[], args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(process.execPath, [...argv, ...args], { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

const noStack = (run: Run) => expect(run.stderr).not.toMatch(/\n\s+at /);

const inspectText = `Tools (3)
  add - Add two numbers
    input:  {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}
    from:   CliTools.add
  sum - Add two numbers, as structured output
    input:  {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}
    output: {"type":"object","properties":{"result":{"type":"number"}},"required":["result"],"additionalProperties":false}
    from:   CliTools.sum
  divide - Divide a by b
    input:  {"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"],"additionalProperties":false}
    from:   CliTools.divide

Resources (1)
  readme - A static note
    uri: cli://readme  (text/plain)
    from: CliTools.readme

Resource templates (1)
  item - One item by id
    uriTemplate: cli://items/{id}
    from: CliTools.item

Prompts (1)
  greet - Greet someone
    argument name (required): Who to greet
    from: CliTools.greet

Types: reflected from the decorators only (no generated module found: \`npx mcp-reflect generate\` writes one)
`;

describe.each(runners)('the mcp-reflect CLI, run from $name', ({ argv }) => {
  const test = it;
  const run = (...args: string[]) => cli(argv, args);
  let scratch: string;
  beforeAll(() => (scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-cli-'))));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  test('prints its usage with --help, and each command its own', async () => {
    const help = await run('--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toMatch(/^Usage: mcp-reflect <command> \[options\]\n[\s\S]*inspect <entry>[\s\S]*call <entry> <tool>/);
    const inspect = await run('inspect', '--help');
    expect(inspect).toMatchObject({ code: 0, stderr: '' });
    expect(inspect.stdout).toMatch(/^Usage: mcp-reflect inspect <entry> \[--json\] \[--module <Name>\] \[--metadata <file>\] \[--subject <id>\] \[--scopes <a,b>\]\n[\s\S]*--json[\s\S]*--metadata <file>/);
    const call = await run('call', '--help');
    expect(call).toMatchObject({ code: 0, stderr: '' });
    expect(call.stdout).toMatch(/^Usage: mcp-reflect call <entry> <tool> \[--args '<json object>'\][\s\S]*--args <json>[\s\S]*--metadata <file>/);
  });

  test('inspect prints every tool, resource, template and prompt as text, with the class and method of each; the app logs go to stderr', async () => {
    const result = await run('inspect', app);
    expect(result).toMatchObject({ code: 0, stdout: inspectText });
    expect(result.stderr).toContain('cli-app ready');
  });

  test('inspect --json prints the lists exactly as an SDK client gets them', async () => {
    const result = await run('inspect', app, '--json');
    expect(result.code).toBe(0);
    const client = await createTestClient(CliAppModule);
    try {
      expect(JSON.parse(result.stdout)).toEqual({
        tools: (await client.listTools()).tools,
        resources: (await client.listResources()).resources,
        resourceTemplates: (await client.listResourceTemplates()).resourceTemplates,
        prompts: (await client.listPrompts()).prompts,
      });
    } finally {
      await client.close();
    }
  });

  test('inspect --module picks a named export; a wrong name says what the entry exports', async () => {
    expect(await run('inspect', app, '--module', 'CliAppModule')).toMatchObject({ code: 0, stdout: inspectText });
    const wrong = await run('inspect', app, '--module', 'CliTools');
    expect(wrong).toMatchObject({ code: 1, stdout: '' });
    expect(wrong.stderr).toBe(
      `Cannot use ${app}: it exports CliTools, but it is not a class decorated with @Module() of 'mcp-reflect' (a standalone application), or with @Module() of '@nestjs/common' importing McpModule.forRoot() of 'mcp-reflect/nest' (a Nest application) (its exports: CliAppModule, CliTools).\n` +
        'Pass --module with the name of the exported root module class.\n',
    );
  });

  test('call prints text content as text, structured content as JSON, and the whole result with --json', async () => {
    expect(await run('call', app, 'add', '--args', '{"a":1,"b":2}')).toMatchObject({ code: 0, stdout: '3\n' });
    expect(await run('call', app, 'sum', '--args={"a":1,"b":2}')).toMatchObject({ code: 0, stdout: '{\n  "result": 3\n}\n' });
    const json = await run('call', app, 'sum', '--args', '{"a":1,"b":2}', '--json');
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual({ content: [{ type: 'text', text: '{"result":3}' }], structuredContent: { result: 3 } });
  });

  test('call exits with 1 and the message on stderr when the result has isError', async () => {
    const result = await run('call', app, 'divide', '--args', '{"a":1,"b":0}');
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/Tool divide returned an error: Cannot divide by zero\n$/);
    noStack(result);
  });

  test('call exits with 1 when the call fails (an unknown tool)', async () => {
    const result = await run('call', app, 'nope');
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(/Cannot call tool nope: .*nope/);
    noStack(result);
  });

  test('call of an unknown tool lists the tools the entry serves', async () => {
    const result = await run('call', app, 'nope');
    expect(result.stderr).toContain(`\nThe tools ${app} serves: add, sum, divide.`);
  });

  test('inspect and call act as a caller with --subject and --scopes; an entry importing ./x.js from TypeScript loads', async () => {
    const entry = 'spec/fixtures/cli-identity/app.module.ts';
    expect(await run('call', entry, 'whoami')).toMatchObject({ code: 0, stdout: 'anonymous []\n' });
    expect(await run('call', entry, 'whoami', '--subject', 'ada', '--scopes', 'admin,read')).toMatchObject({ code: 0, stdout: 'ada [admin read]\n' });
    const hidden = JSON.parse((await run('inspect', entry, '--json', '--subject', 'bob')).stdout);
    expect(hidden.tools.map((t: { name: string }) => t.name)).toEqual(['whoami']);
    const shown = JSON.parse((await run('inspect', entry, '--json', '--subject', 'ada', '--scopes', 'admin')).stdout);
    expect(shown.tools.map((t: { name: string }) => t.name)).toEqual(['whoami', 'purge']);
    const refused = await run('call', entry, 'purge', '--subject', 'bob');
    expect(refused).toMatchObject({ code: 1 });
    expect(refused.stderr).toContain("Insufficient scope: the tool 'purge' needs the scope admin");
  });

  test('call rejects --args that is not a JSON object with exit code 2', async () => {
    const bad = await run('call', app, 'add', '--args', '{a');
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toMatch(/^Invalid --args: .*\. Pass the tool's arguments as one JSON object, e\.g\. --args '\{"a": 1\}'\.\nRun `mcp-reflect --help` for usage\.\n$/);
    const array = await run('call', app, 'add', '--args', '[1]');
    expect(array).toMatchObject({ code: 2, stdout: '' });
    expect(array.stderr).toContain('Invalid --args: expected a JSON object of arguments, got an array.');
  });

  test('usage errors exit with 2: no command, unknown command, unknown option, missing argument', async () => {
    const none = await run();
    expect(none).toMatchObject({ code: 2, stdout: '' });
    expect(none.stderr).toMatch(/^Usage: mcp-reflect <command>/);
    expect(await run('frob')).toMatchObject({
      code: 2,
      stdout: '',
      // Every command, in the order of the usage text (inspect, call, new, …).
      stderr: expect.stringMatching(/^Unknown command frob: mcp-reflect knows inspect, call, new(, [\w-]+)* and [\w-]+\.\nRun `mcp-reflect --help` for usage\.\n$/),
    });
    expect(await run('inspect', app, '--verbose')).toMatchObject({
      code: 2,
      stderr: 'Unknown option --verbose for `mcp-reflect inspect`.\nRun `mcp-reflect --help` for usage.\n',
    });
    expect(await run('call', app)).toMatchObject({ code: 2, stderr: '`mcp-reflect call` is missing <tool>.\nRun `mcp-reflect --help` for usage.\n' });
    expect(await run('call', app, 'add', '--args')).toMatchObject({ code: 2, stderr: 'Option --args of `mcp-reflect call` needs a value.\nRun `mcp-reflect --help` for usage.\n' });
  });

  test('a missing entry file exits with 2', async () => {
    const result = await run('inspect', 'missing.js');
    expect(result).toMatchObject({
      code: 2,
      stdout: '',
      stderr:
        `Cannot find the entry file missing.js (looked at ${path.join(root, 'missing.js')}).\n` +
        'Give the path of the file that exports your root module, e.g. `mcp-reflect inspect dist/app.module.js`.\n',
    });
  });

  test('an entry that exports no module exits with 1', async () => {
    expect(await run('inspect', 'spec/fixtures/cli-no-module.ts')).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        "Cannot find a root module in spec/fixtures/cli-no-module.ts: none of its exports (NotAModule, answer) is a class decorated with @Module() of 'mcp-reflect' (a standalone application), or with @Module() of '@nestjs/common' importing McpModule.forRoot() of 'mcp-reflect/nest' (a Nest application).\n" +
        'Export the root module class from the entry (as the default export or a named one), decorated with either @Module().\n',
    });
  });

  test('a bootstrap error is printed as is (cause and fix) and exits with 1', async () => {
    expect(await run('call', 'spec/fixtures/cli-broken-app.ts', 'add')).toMatchObject({
      code: 1,
      stdout: '',
      stderr:
        'Cannot create the MCP server: McpModule is not imported anywhere in the module graph, so the server has no name or version.\n' +
        "Fix: add McpModule.forRoot({ name: 'my-server', version: '1.0.0' }) to the imports of the root module.\n",
    });
  });

  test('an entry that throws while loading exits with 1, naming the file and the error', async () => {
    const entry = path.join(scratch, 'syntax.js');
    writeFileSync(entry, 'module.exports = {;\n');
    const result = await run('inspect', entry);
    expect(result).toMatchObject({ code: 1, stdout: '' });
    expect(result.stderr).toMatch(new RegExp(`^Cannot load ${entry.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: .*Unexpected token`));
    expect(result.stderr).toContain('Fix the error in the entry (or in a file it imports) and run the command again.');
    noStack(result);
  });
});

describe('the built mcp-reflect CLI on a TypeScript entry outside any project', () => {
  it('says to compile first when @swc/core cannot be required', async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-cli-ts-'));
    try {
      const entry = path.join(scratch, 'app.module.ts');
      writeFileSync(entry, 'export class AppModule {}\n');
      const result = await new Promise<Run>((resolve) =>
        execFile(process.execPath, [built, 'inspect', entry], { cwd: scratch, encoding: 'utf8' }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      );
      expect(result).toMatchObject({
        code: 1,
        stdout: '',
        stderr:
          `Cannot load the TypeScript entry ${entry}: @swc/core is not installed in this project, and mcp-reflect needs it to compile TypeScript on the fly.\n` +
          'Compile first (e.g. `npx tsc`) and pass the built .js file, or install @swc/core as a dev dependency.\n',
      });
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe("the built mcp-reflect CLI resolves a TypeScript source's ./x.js import on each Node (docs/cli.md)", () => {
  // A Node before 22.15 (the machine's Node 20) has no public resolve hook for require(): the compile step points
  // require("./x.js") at x.ts. Node 22 (tools/node22, installed by spec/support/global-setup.js), like the Node 24 and
  // 26 that .ci/run also runs this suite on, resolves it through module.registerHooks().
  const own = typeof (require('node:module') as { registerHooks?: unknown }).registerHooks;
  const nodes = [
    { name: `Node ${process.version} (${own === 'function' ? 'module.registerHooks' : 'the compile step'})`, node: process.execPath, hooks: own },
    { name: 'Node 22 (module.registerHooks)', node: path.join(root, 'tools', 'node22', 'node_modules', '.bin', 'node'), hooks: 'function' },
  ];
  it.each(nodes)('$name', async ({ node, hooks }) => {
    const exec = (args: string[]) =>
      new Promise<Run>((resolve) =>
        execFile(node, args, { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
        ),
      );
    expect((await exec(['-p', "typeof require('node:module').registerHooks"])).stdout.trim()).toBe(hooks);
    const result = await exec([built, 'call', 'spec/fixtures/cli-identity/app.module.ts', 'whoami', '--subject', 'ada', '--scopes', 'admin']);
    expect(result).toMatchObject({ code: 0, stdout: 'ada [admin]\n', stderr: '' });
  });
});
