import 'reflect-metadata';
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  Injectable,
  McpModule,
  Module,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const calls: string[] = [];

function recorder(name: string) {
  @Injectable()
  class Recorder
    implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy, BeforeApplicationShutdown, OnApplicationShutdown
  {
    async onModuleInit() {
      await new Promise((resolve) => setTimeout(resolve, 5)); // awaited: the next module waits
      calls.push(`${name}.onModuleInit`);
    }
    onApplicationBootstrap() {
      calls.push(`${name}.onApplicationBootstrap`);
    }
    onModuleDestroy() {
      calls.push(`${name}.onModuleDestroy`);
    }
    beforeApplicationShutdown(signal?: string) {
      calls.push(`${name}.beforeApplicationShutdown(${signal})`);
    }
    onApplicationShutdown(signal?: string) {
      calls.push(`${name}.onApplicationShutdown(${signal})`);
    }
  }
  Object.defineProperty(Recorder, 'name', { value: `${name}Recorder` });
  return Recorder;
}

const DbRecorder = recorder('Db');
const RepoRecorder = recorder('Repo');
const AppRecorder = recorder('App');

@Module({ providers: [DbRecorder], exports: [DbRecorder] })
class DbModule {}

@Module({ imports: [DbModule], providers: [RepoRecorder], exports: [RepoRecorder] })
class RepoModule {}

@Module({ imports: [McpModule.forRoot({ name: 'lifecycle', version: '1.0.0' }), RepoModule], providers: [AppRecorder] })
class AppModule {}

describe('lifecycle hooks', () => {
  it('runs start hooks from the deepest module up and stop hooks in reverse', async () => {
    calls.length = 0;
    const client = await createTestClient(AppModule);
    expect(calls).toEqual([
      'Db.onModuleInit',
      'Repo.onModuleInit',
      'App.onModuleInit',
      'Db.onApplicationBootstrap',
      'Repo.onApplicationBootstrap',
      'App.onApplicationBootstrap',
    ]);
    calls.length = 0;
    await client.app.close('SIGTERM');
    await client.close();
    expect(calls).toEqual([
      'App.onModuleDestroy',
      'Repo.onModuleDestroy',
      'Db.onModuleDestroy',
      'App.beforeApplicationShutdown(SIGTERM)',
      'Repo.beforeApplicationShutdown(SIGTERM)',
      'Db.beforeApplicationShutdown(SIGTERM)',
      'App.onApplicationShutdown(SIGTERM)',
      'Repo.onApplicationShutdown(SIGTERM)',
      'Db.onApplicationShutdown(SIGTERM)',
    ]);
  });

  it('runs the shutdown hooks on SIGTERM when enableShutdownHooks() is on, then exits by the signal', async () => {
    const root = path.resolve(__dirname, '..', '..');
    const child = spawn(
      process.execPath,
      ['-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'spec', 'fixtures', 'shutdown-app.ts')],
      { stdio: ['pipe', 'pipe', 'pipe'] },
    );
    let stderr = '';
    const ready = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('ready')) resolve();
      }),
    );
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on('exit', (code, signal) => resolve({ code, signal })),
    );
    await ready;
    child.kill('SIGTERM');
    const { code, signal } = await exited;
    expect({ code, signal }).toEqual({ code: null, signal: 'SIGTERM' });
    expect(stderr.split('\n').filter((line) => line.startsWith('hook '))).toEqual([
      'hook onModuleDestroy',
      'hook beforeApplicationShutdown SIGTERM',
      'hook onApplicationShutdown SIGTERM',
    ]);
  }, 20_000);
});
