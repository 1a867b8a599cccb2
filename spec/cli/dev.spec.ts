import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { waitFor } from '../support/waiting';
import { freePort } from '../support/free-port';

const root = path.resolve(__dirname, '..', '..');


const tools = (answer: string) => `import { Injectable, McpModule, Module, Tool } from 'mcp-reflect';
@Injectable()
export class HelloTools {
  @Tool({ description: 'Says which version runs' })
  hello(): string {
    return '${answer}';
  }
}
@Module({ imports: [McpModule.forRoot({ name: 'dev-app', version: '1.0.0' })], providers: [HelloTools] })
export class DevModule {}
`;

describe('mcp-reflect dev', () => {
  const dir = path.join(root, 'spec', 'fixtures', `tmp-dev-${process.pid}`);
  const entry = path.join(dir, 'src', 'app.module.ts');
  let dev: ChildProcess | undefined;
  let output = '';
  beforeAll(() => {
    mkdirSync(path.join(dir, 'src'), { recursive: true });
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { experimentalDecorators: true, emitDecoratorMetadata: true }, include: ['src'] }));
    writeFileSync(entry, tools('v1'));
  });
  afterAll(() => {
    if (dev?.exitCode === null) dev.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  const served = (count: number) => waitFor(() => (output.match(/serving .* at (http:\S+)/g) ?? []).length >= count || undefined, { what: `restart ${count} of dev`, timeout: 30_000 });

  it('serves the module, restarts it on a change with the same URL (a 2026-07-28 client keeps working), waits out a broken file, and stops on Ctrl-C', async () => {
    const port = await freePort();
    dev = spawn(process.execPath, ['-r', './spec/support/register.js', 'lib/cli/main.ts', 'dev', entry, '--port', String(port)], { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } });
    dev.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    dev.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    await served(1);
    const url = `http://127.0.0.1:${port}/mcp`;
    expect(output).toContain(`at ${url}`);
    // The lines after the first are written a moment later.
    await waitFor(() => output.includes('watching ') || undefined, { what: 'the lines after the first', timeout: 10_000 });
    expect(output).toContain(`npx @modelcontextprotocol/inspector, then connect to ${url}`);

    const client = new Client({ name: 'dev-spec', version: '1.0.0' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    const hello = async () => ((await client.callTool({ name: 'hello', arguments: {} })).content as { text: string }[])[0]!.text;
    try {
      expect(await hello()).toBe('v1');
      writeFileSync(entry, tools('v2'));
      await served(2);
      expect(await hello()).toBe('v2');

      writeFileSync(entry, 'export class Broken {');
      await waitFor(() => output.includes('the server did not start') || undefined, { what: 'the failed start to be reported', timeout: 30_000 });
      expect(output).toContain('waiting for a change');
      expect(dev.exitCode).toBeNull();
      writeFileSync(entry, tools('v3'));
      await served(3);
      expect(await hello()).toBe('v3');
    } finally {
      await client.close();
    }
    const exited = new Promise<number | null>((resolve) => dev!.once('exit', (code) => resolve(code)));
    dev.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(output).toContain('stopping');
  }, 90_000);
});
