import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { freePort } from './free-port';

/** A real redis-server (Debian's package; `.ci/run` installs it) on a free loopback port, for one spec file. */
export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after `stop()`). */
  start(): Promise<void>;
}

export function redisServerPath(): string {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' }).stdout.trim();
  if (!found) throw new Error('redis-server is not installed: run `apt-get install -y redis-server` (.ci/run does it when missing).');
  return found;
}


async function ready(port: number, deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    const answered = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
      socket.once('data', (data) => {
        socket.destroy();
        resolve(data.toString().startsWith('+PONG'));
      });
      socket.once('error', () => resolve(false));
    });
    if (answered) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`redis-server did not answer on port ${port}`);
}

export async function startRedis(): Promise<RedisProcess> {
  const binary = redisServerPath();
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawn(binary, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await ready(port, Date.now() + 10_000);
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop: async () => {
      const running = child;
      if (!running || running.exitCode !== null) return;
      await new Promise<void>((resolve) => {
        running.once('exit', () => resolve());
        running.kill('SIGTERM');
      });
    },
  };
}
