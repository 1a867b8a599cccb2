import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** bullmq is an optional peer: loaded when a RedisTaskQueue is first used, never by an entry. */
describe('the durable task queue loads BullMQ lazily', () => {
  const loaded = (source: string) =>
    execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', `${source}.then(() => (console.log(Object.keys(require.cache).some((f) => f.includes('node_modules/bullmq/'))), process.exit(0)))`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();

  it('the main entry and mcp-reflect/redis load none of it, nor does creating a queue', () => {
    expect(loaded("Promise.resolve(require('./lib/index.ts')).then(() => new (require('./lib/entries/redis.ts').RedisTaskQueue)({ connection: {} }))")).toBe('false');
  });

  it('a worker loads it as it starts', () => {
    // No Redis listens on port 9: the worker fails to get ready, after BullMQ was loaded.
    const start = "new (require('./lib/entries/redis.ts').RedisTaskQueue)({ connection: { port: 9, maxRetriesPerRequest: null, lazyConnect: true } }).work({ run: async () => {}, abandon: async () => {} }).catch(() => undefined)";
    expect(loaded(start)).toBe('true');
  });
});
