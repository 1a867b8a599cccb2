import { spawn } from 'node:child_process';
import path from 'node:path';

/** The local upstream sign-in provider of samples/signin (oidc-provider) in a process of its own, on a free port. */
export async function startSignInUpstream(): Promise<{ issuer: string; stop(): void }> {
  const upstream = spawn(process.execPath, [path.resolve(__dirname, '..', '..', 'samples', 'signin', 'upstream.mjs')], { env: { ...process.env, UPSTREAM_PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  const issuer = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`the upstream provider did not start:\n${seen}`)), 20_000);
    upstream.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /upstream sign-in provider at (\S+)/.exec(seen);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    upstream.once('exit', (code) => reject(new Error(`the upstream provider exited (${code}):\n${seen}`)));
  });
  upstream.stderr!.resume();
  return { issuer, stop: () => void upstream.kill() };
}
