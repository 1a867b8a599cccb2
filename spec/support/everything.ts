import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

/** The official reference server, as tools/everything pins it (installed by the jest global setup). */
export const EVERYTHING = path.resolve(__dirname, '..', '..', 'tools', 'everything', 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js');

/** server-everything over stdio, as `McpModule.proxy({ stdio })` starts it. */
export const everythingStdio = { command: process.execPath, args: [EVERYTHING, 'stdio'] };

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** server-everything's Streamable HTTP mode on 127.0.0.1, on a port the OS chooses (or `port`). */
export async function startEverythingHttp(port = 0): Promise<RunningServer> {
  const child: ChildProcess = spawn(process.execPath, ['-r', path.join(__dirname, 'report-listen.cjs'), EVERYTHING, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const chosen = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen within 15 s: ${seen.slice(-500)}`)), 15_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /LISTENING (\d+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${seen.slice(-500)}`)));
  });
  child.stderr!.resume();
  return {
    url: `http://127.0.0.1:${chosen}/mcp`,
    port: chosen,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
