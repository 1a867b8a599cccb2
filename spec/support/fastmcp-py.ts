import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import type { RunningServer } from './everything';

const DIR = path.resolve(__dirname, '..', '..', 'tools', 'fastmcp-py');

/** tools/fastmcp-py/server.py (Python FastMCP 4, installed by the jest global setup) on Streamable HTTP, 127.0.0.1. */
export async function startFastMcpPy(): Promise<RunningServer> {
  const child: ChildProcess = spawn(path.join(DIR, '.venv', 'bin', 'python'), [path.join(DIR, 'server.py')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let seen = '';
  child.stderr!.on('data', (chunk: Buffer) => void (seen = (seen + chunk.toString()).slice(-4_000)));
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  try {
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Python FastMCP did not start within 20 s: ${seen.slice(-500)}`)), 20_000);
      const check = () => {
        const match = /LISTENING (\d+)/.exec(seen);
        if (match) {
          clearTimeout(timer);
          return resolve(Number(match[1]));
        }
        setTimeout(check, 20);
      };
      check();
      child.once('exit', (code) => reject(new Error(`Python FastMCP exited (${code}): ${seen.slice(-500)}`)));
    });
    // The port is chosen before uvicorn binds it: wait until it accepts connections.
    for (let i = 0; ; i++) {
      const open = await new Promise<boolean>((resolve) => {
        const socket = connect(port, '127.0.0.1', () => (socket.end(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
      if (open) break;
      if (i > 400 || child.exitCode !== null) throw new Error(`Python FastMCP did not listen on ${port}: ${seen.slice(-500)}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return { url: `http://127.0.0.1:${port}/mcp`, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
