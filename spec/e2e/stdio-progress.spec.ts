import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const root = path.resolve(__dirname, '..', '..');
const register = path.join(root, 'spec', 'support', 'register.js');

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
    // could not fail. The retry hides no regression: without the gap (MODERN_GAP_MS = 0) it fails all three tries.
    jest.retryTimes(2);
    it('delivers every progress report of a tool that reports with no pause (after a 100 ms gap)', () => collectsEveryProgress('2026-07-28'));
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
