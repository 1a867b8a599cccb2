import 'reflect-metadata';
import { loadSystem } from '../systems';

/**
 * Serves one system over HTTP in its own process (so the load generator does not share its core), prints
 * `URL=<url>`, and answers a `mem` line on stdin with its memory after a full GC, a `cpu` line with the CPU
 * time it has used (µs, every thread).
 */
async function main(): Promise<void> {
  const [name, mode] = process.argv.slice(2);
  const system = loadSystem(name); // only this system's packages are loaded
  const serve = mode === 'stateful' ? system?.httpStateful : system?.httpStateless;
  if (!system || !serve) throw new Error(`No ${mode} HTTP for ${name}`);
  const listening = await serve.call(system);
  process.stdout.write(`URL=${listening.url}\n`);
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (line: string) => {
    if (line.trim() === 'cpu') {
      const { user, system: kernel } = process.cpuUsage();
      process.stdout.write(`CPU=${user + kernel}\n`);
      return;
    }
    if (line.trim() !== 'mem') return;
    (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapUsed } = process.memoryUsage();
    process.stdout.write(`MEM=${JSON.stringify({ rss, heapUsed })}\n`);
  });
  process.stdin.on('end', () => void listening.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
