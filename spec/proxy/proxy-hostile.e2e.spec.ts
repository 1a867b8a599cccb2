import 'reflect-metadata';
import path from 'node:path';
import { Injectable, McpFactory, McpModule, Module, Tool, type McpApplication, type McpProxyOptions } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

const HOSTILE = { command: process.execPath, args: [path.join(__dirname, '..', 'fixtures', 'proxy', 'hostile-remote.cjs')] };
const logged: string[] = [];
const logger = { error: (m: string) => void logged.push(m), warn: () => undefined, info: (m: string) => void logged.push(m), debug: () => undefined };

function gateway(proxy: McpProxyOptions) {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', logger: logger as never }), McpModule.proxy(proxy)] })
  class Gateway {}
  return Gateway;
}

const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text ?? '';
const settle = (promise: Promise<unknown>) => promise.then((r) => ({ ok: r }), (error: Error) => ({ error: error.message }));

describe('McpModule.proxy(): a hostile remote is bounded', () => {
  let client: TestClient | undefined;
  afterEach(async () => {
    await client?.close();
    client = undefined;
    logged.length = 0;
  });

  it('a remote that never answers fails the call after requestTimeout; its other tools go on', async () => {
    client = await createTestClient(gateway({ namespace: 'bad', stdio: HOSTILE, requestTimeout: 300 }));
    const hung = await settle(client.callTool({ name: 'bad_hang', arguments: {} }, { timeout: 5_000 }));
    expect(hung).toEqual({ error: expect.stringMatching(/did not answer: .*timed out/i) });
    expect(text(await client.callTool({ name: 'bad_ok', arguments: {} }))).toBe('ok');
  });

  it('a flood of progress and log messages is cut, not queued: the caller gets a bounded share, then the result', async () => {
    client = await createTestClient(gateway({ namespace: 'bad', stdio: HOSTILE }));
    await client.setLoggingLevel('debug');
    let progress = 0;
    let logs = 0;
    client.setNotificationHandler('notifications/message', () => void logs++);
    const result = await client.callTool({ name: 'bad_flood', arguments: {} }, { onprogress: () => void progress++, timeout: 20_000 });
    expect(text(result)).toBe('flooded');
    expect(progress).toBeGreaterThan(0);
    expect(progress + logs).toBeLessThan(1_000); // of 4 000 sent
    expect(text(await client.callTool({ name: 'bad_ok', arguments: {} }))).toBe('ok');
  });

  it('a 50 MB answer over stdio fails its call naming the bound; the remote is restarted and serves again', async () => {
    client = await createTestClient(gateway({ namespace: 'bad', stdio: HOSTILE, maxMessageBytes: 1024 * 1024, reconnect: { initialDelay: 50 } }));
    const huge = await settle(client.callTool({ name: 'bad_huge', arguments: {} }, { timeout: 20_000 }));
    expect(huge).toEqual({ error: expect.stringMatching(/larger than 1048576 bytes \(maxMessageBytes\)/) });
    let again: unknown;
    for (let i = 0; i < 100 && text(again) !== 'ok'; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      again = await client.callTool({ name: 'bad_ok', arguments: {} }).catch(() => undefined);
    }
    expect(text(again)).toBe('ok');
  });

  describe('over HTTP', () => {
    @Injectable()
    class Big {
      @Tool()
      huge(): string {
        return 'y'.repeat(50 * 1024 * 1024);
      }

      @Tool()
      small(): string {
        return 'small';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'big', version: '1.0.0' })], providers: [Big] })
    class BigModule {}
    let remote: McpApplication;
    let url: string;
    beforeAll(async () => {
      remote = await McpFactory.create(BigModule);
      await remote.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
      url = String(await remote.getUrl());
    });
    afterAll(() => remote.close());

    it('a 50 MB answer fails its call naming the bound, and the next call is served', async () => {
      client = await createTestClient(gateway({ namespace: 'big', url, maxMessageBytes: 1024 * 1024, reconnect: { initialDelay: 50 } }));
      const huge = await settle(client.callTool({ name: 'big_huge', arguments: {} }, { timeout: 20_000 }));
      expect(huge).toEqual({ error: expect.stringMatching(/larger than 1048576 bytes \(maxMessageBytes\)/) });
      let again: unknown;
      for (let i = 0; i < 100 && text(again) !== 'small'; i++) {
        again = await client.callTool({ name: 'big_small', arguments: {} }).catch(() => undefined);
        if (text(again) !== 'small') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(text(again)).toBe('small');
    });
  });
});
