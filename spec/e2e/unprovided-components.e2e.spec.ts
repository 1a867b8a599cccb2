import 'reflect-metadata';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpFactory, McpModule, Module } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { ProvidedTools, UnprovidedAppModule } from '../fixtures/unprovided-app';
import { deferred, within } from '../support/waiting';

const root = path.resolve(__dirname, '..', '..');
const register = path.join(root, 'spec', 'support', 'register.js');
const fixture = 'spec/fixtures/unprovided-app.ts';

/** The warning for the fixture's ForgottenTools, as the default logger prints it. */
const warning =
  '[mcp-reflect] ForgottenTools has @Tool() forgotten, @Prompt() remind, but no module of UnprovidedAppModule provides ForgottenTools, so none of them is served.\n' +
  'Fix: add ForgottenTools to the providers of a module imported by UnprovidedAppModule (or of UnprovidedAppModule itself). ' +
  'If ForgottenTools belongs to another application in this process, turn this warning off with McpModule.forRoot({ warnings: { unprovidedComponents: false } }).\n';

/** Serves the fixture on stdio in a process of its own; resolves once it says it is ready, with all its stderr so far. */
async function serveFixture(env: Record<string, string> = {}) {
  let stderr = '';
  const ready = deferred();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', register, path.join(root, fixture)],
    cwd: root,
    stderr: 'pipe',
    env: { ...(process.env as Record<string, string>), NODE_OPTIONS: '', ...env },
  });
  transport.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    if (stderr.includes('unprovided-app ready\n')) ready.resolve();
  });
  const client = new Client({ name: 'unprovided-spec', version: '1.0.0' });
  await client.connect(transport);
  await within(ready.promise, 'the fixture to be ready');
  return { client, stderr: () => stderr };
}

function cli(args: readonly string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['-r', register, 'lib/cli/main.ts', ...args],
      { cwd: root, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env } },
      (error, stdout, stderr) => resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('a class with component decorators that no module provides', () => {
  it('is named, with its methods and the fix, on the stderr of a server that starts serving on stdio', async () => {
    const { client, stderr } = await serveFixture();
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(['ping', 'add']);
      // The warning comes before "ready" (listen() warns as it starts); the provided class and its base are not named.
      expect(stderr()).toBe(`${warning}unprovided-app ready\n`);
    } finally {
      await client.close();
    }
  });

  it('is not named when McpModule.forRoot({ warnings: { unprovidedComponents: false } }) turns the warning off', async () => {
    const { client, stderr } = await serveFixture({ UNPROVIDED_WARNINGS: 'off' });
    try {
      expect(stderr()).toBe('unprovided-app ready\n');
    } finally {
      await client.close();
    }
  });

  it('is named by the CLI inspect and call, on stderr; stdout keeps only the output', async () => {
    const inspect = await cli(['inspect', fixture]);
    expect(inspect.code).toBe(0);
    expect(inspect.stdout).toMatch(/^Tools \(2\)\n  ping - Answer pong\n/);
    expect(inspect.stderr).toContain(warning);
    const call = await cli(['call', fixture, 'add', '--args', '{"a":1,"b":2}']);
    expect(call).toMatchObject({ code: 0, stdout: '3\n', stderr: warning });
    const quiet = await cli(['inspect', fixture, '--json'], { UNPROVIDED_WARNINGS: 'off' });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).not.toContain('ForgottenTools');
  });

  describe('in one process (through the application logger)', () => {
    const warned: string[] = [];
    const logger = { warn: (message: string) => void warned.push(message), error: () => undefined };
    const module = (warnings?: { unprovidedComponents?: boolean }) => {
      @Module({ imports: [McpModule.forRoot({ name: 'in-process', version: '1.0.0', logger, warnings })], providers: [ProvidedTools] })
      class InProcessModule {}
      return InProcessModule;
    };
    const listenAndClose = async (root: Function) => {
      const app = await McpFactory.create(root as typeof UnprovidedAppModule);
      try {
        await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      } finally {
        await app.close();
      }
    };

    it('stays silent in createTestClient and McpFactory.create alone, and when turned off', async () => {
      const client = await createTestClient(module());
      await client.close();
      await (await McpFactory.create(module())).close();
      await listenAndClose(module({ unprovidedComponents: false }));
      expect(warned).toEqual([]);
    });

    it('warns as app.listen() starts serving, once per class and process', async () => {
      await listenAndClose(module());
      expect(warned).toEqual([expect.stringMatching(/^ForgottenTools has @Tool\(\) forgotten, @Prompt\(\) remind, but no module of InProcessModule provides ForgottenTools/)]);
      await listenAndClose(module());
      expect(warned).toHaveLength(1);
    });
  });
});
