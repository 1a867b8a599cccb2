import 'reflect-metadata';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { McpFactory, McpModule, Module } from 'mcp-reflect';

const root = path.resolve(__dirname, '..', '..');
const register = path.join(root, 'spec', 'support', 'register.js');

@Module({ imports: [McpModule.forRoot({ name: 'gap', version: '1.0.0' })] })
class GapModule {}

/**
 * Progress over a real pipe: the official client handles a response at once but a notification a microtask
 * later, so progress that reaches it in the same read as the result used to be dropped ("unknown token").
 */
async function collectsEveryProgress(era: '2026-07-28' | undefined): Promise<void> {
  const transport = new StdioClientTransport({ command: process.execPath, args: ['-r', register, path.join(root, 'spec', 'fixtures', 'progress-app.ts')], cwd: root, stderr: 'pipe' });
  const client = new Client({ name: 'progress-spec', version: '1.0.0' }, era ? { versionNegotiation: { mode: { pin: era } } } : {});
  const errors: string[] = [];
  client.onerror = (error) => void errors.push(error.message);
  await client.connect(transport);
  try {
    for (const tool of ['count', 'countSync', 'count', 'countSync', 'count']) {
      const seen: number[] = [];
      const result = await client.callTool({ name: tool, arguments: { steps: 5 } }, { onprogress: (p) => void seen.push(p.progress) });
      expect(result.content).toEqual([{ type: 'text', text: 'counted 5' }]);
      expect(seen).toEqual([1, 2, 3, 4, 5]);
    }
    expect(errors).toEqual([]);
  } finally {
    await client.close();
  }
}

describe('progress over stdio (spawned process, official client)', () => {
  it('delivers every progress report of a tool that reports with no pause (2025-11-25: after a ping round trip, always)', () => collectsEveryProgress(undefined));

  describe('on 2026-07-28', () => {
    // Retried, and it cannot be made deterministic: this revision has no request to the client, so there is no
    // condition to wait for. The server's answer waits a timed gap (100 ms) after the progress is flushed, and
    // whether the official client reads the progress in an earlier read than the answer depends on its process
    // being scheduled within that gap: a client starved of CPU for longer (a loaded CI machine) reads both at once
    // and drops the progress, which is the documented limit of the workaround (docs/context.md), not a fault of
    // the spec. Anything the spec did to wait on the client's side would change the client it checks, and then it
    // could not fail. The retry hides no regression: without the gap (`progressGapMs: 0`) it fails all three tries.
    // Whether the SDK client still needs the gap: spec/server/sdk-contract.spec.ts.
    jest.retryTimes(2);
    it('delivers every progress report of a tool that reports with no pause (after a 100 ms gap)', () => collectsEveryProgress('2026-07-28'));
  });
});

describe('progressGapMs (the opt-out of the stdio progress workaround)', () => {
  /** A client of the progress app, counting the pings the server sends it (the 2025-era flush). */
  const spawn = async (env: Record<string, string>, era?: '2026-07-28') => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', register, path.join(root, 'spec', 'fixtures', 'progress-app.ts')],
      cwd: root,
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), ...env },
    });
    const client = new Client({ name: 'gap-spec', version: '1.0.0' }, era ? { versionNegotiation: { mode: { pin: era } } } : {});
    const pings = { count: 0 };
    client.setRequestHandler('ping', () => {
      pings.count++;
      return {};
    });
    await client.connect(transport);
    const call = () => client.callTool({ name: 'count', arguments: { steps: 2 } }, { onprogress: () => undefined });
    return { client, pings, call };
  };

  it('flushes progress with a ping before each answer on 2025-11-25 by default', async () => {
    const { client, pings, call } = await spawn({});
    try {
      await call();
      expect(pings.count).toBeGreaterThan(0);
    } finally {
      await client.close();
    }
  });

  it('sends the answer at once with progressGapMs: 0 (no ping, no wait)', async () => {
    const { client, pings, call } = await spawn({ PROGRESS_GAP_MS: '0' });
    try {
      const result = await call();
      expect(result.content).toEqual([{ type: 'text', text: 'counted 2' }]);
      expect(pings.count).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('holds the answer the gap given after progress on 2026-07-28', async () => {
    const { client, call } = await spawn({ PROGRESS_GAP_MS: '700' }, '2026-07-28');
    try {
      const started = Date.now();
      await call();
      expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    } finally {
      await client.close();
    }
  });

  it('refuses a gap that is not a whole number of milliseconds, naming the option and the fix', async () => {
    const app = await McpFactory.create(GapModule);
    try {
      const transport = new StdioServerTransport(new PassThrough(), new PassThrough());
      await expect(app.connect(transport, { progressGapMs: -1 })).rejects.toThrow(
        'Cannot serve stdio with { progressGapMs: -1 }: it must be a whole number of milliseconds, 0 or more.\nFix: give e.g. 100 (the default), 0 to send answers at once, or leave it out.',
      );
    } finally {
      await app.close();
    }
  });
});

describe('stdout while serving stdio', () => {
  const spawn = async (env: Record<string, string> = {}) => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', register, path.join(root, 'spec', 'fixtures', 'progress-app.ts')],
      cwd: root,
      stderr: 'pipe',
      env: { ...(process.env as Record<string, string>), ...env },
    });
    const stderr: string[] = [];
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
    const client = new Client({ name: 'stdout-spec', version: '1.0.0' });
    const errors: string[] = [];
    client.onerror = (error) => void errors.push(error.message);
    await client.connect(transport);
    return { client, stderr, errors };
  };

  it('sends a console.log in a tool to stderr, keeping the protocol stream clean', async () => {
    const { client, stderr, errors } = await spawn();
    try {
      const result = await client.callTool({ name: 'chatty', arguments: { text: 'hello' } });
      expect(result.content).toEqual([{ type: 'text', text: 'said hello' }]);
      expect(errors).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr.join('')).toContain('debug: hello\nstray write\n');
    } finally {
      await client.close();
    }
  });

  it('leaves stdout alone with redirectStdout: false (the stray lines go to the client, not to stderr)', async () => {
    const { client, stderr } = await spawn({ REDIRECT_STDOUT: 'false' });
    try {
      const result = await client.callTool({ name: 'chatty', arguments: { text: 'hello' } });
      expect(result.content).toEqual([{ type: 'text', text: 'said hello' }]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(stderr.join('')).not.toContain('debug: hello');
    } finally {
      await client.close();
    }
  });
});
