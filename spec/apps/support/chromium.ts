import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

/**
 * Headless Chromium driven over the DevTools protocol through `--remote-debugging-pipe` (fd 3 in, fd 4 out,
 * NUL-separated JSON): no websocket, no npm browser package, nothing downloaded. Uses Debian's `chromium`
 * (installed by .ci/run), or the binary named by CHROMIUM_BIN.
 */

/** The Chromium binary: CHROMIUM_BIN, else the first of chromium, chromium-browser, google-chrome on PATH. */
export function findChromium(): string | undefined {
  const names = ['chromium', 'chromium-browser', 'google-chrome'];
  const candidates = [
    ...(process.env.CHROMIUM_BIN ? [process.env.CHROMIUM_BIN] : []),
    ...(process.env.PATH ?? '').split(path.delimiter).flatMap((dir) => names.map((name) => path.join(dir, name))),
  ];
  return candidates.find((file) => {
    try {
      accessSync(file, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

type Params = Record<string, unknown>;
interface Message {
  id?: number;
  method?: string;
  params?: Params;
  result?: Params;
  error?: { message: string };
  sessionId?: string;
}
type Listener = (params: Params, sessionId?: string) => void;

/** A browser process and its DevTools connection. */
export class Browser {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: Params) => void; reject: (error: Error) => void; method: string }>();
  private readonly listeners = new Map<string, Set<Listener>>();
  private buffer = '';
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
    readonly stderr: string[],
  ) {
    const input = child.stdio[4] as Readable;
    input.setEncoding('utf8');
    input.on('data', (chunk: string) => this.receive(chunk));
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    void this.exited.then(() => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`Chromium exited before answering ${waiter.method}: ${this.stderr.join('').slice(-2000)}`));
      this.pending.clear();
    });
  }

  static launch(binary: string): Browser {
    const profile = mkdtempSync(path.join(tmpdir(), 'mcp-apps-chromium-'));
    const child = spawn(
      binary,
      [
        '--headless',
        '--no-sandbox', // CI runs as root, where Chromium's own sandbox cannot start
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--no-default-browser-check',
        '--disable-extensions',
        '--disable-background-networking',
        '--hide-scrollbars',
        '--mute-audio',
        '--force-device-scale-factor=1',
        // Keep the sandboxed view in the page's process, so one DOM.getDocument (pierce) reaches into it.
        '--disable-features=IsolateSandboxedIframes,site-per-process',
        '--disable-site-isolation-trials',
        '--window-size=800,600',
        '--remote-debugging-pipe',
        `--user-data-dir=${profile}`,
        'about:blank',
      ],
      { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] },
    );
    const stderr: string[] = [];
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      if (stderr.length < 200) stderr.push(chunk);
    });
    return new Browser(child, profile, stderr);
  }

  /** Sends one DevTools command (to a page when `sessionId` is given) and resolves with its result. */
  send<T = Params>(method: string, params: Params = {}, sessionId?: string): Promise<T> {
    const id = this.nextId++;
    const output = this.child.stdio[3] as Writable;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (value: Params) => void, reject, method });
      output.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Resolves with the params of the next `event` (of the page `sessionId`) that `accept` takes. */
  next(event: string, sessionId?: string, accept: (params: Params) => boolean = () => true): Promise<Params> {
    return new Promise((resolve) => {
      const listener: Listener = (params, from) => {
        if (from !== sessionId || !accept(params)) return;
        this.listeners.get(event)!.delete(listener);
        resolve(params);
      };
      this.on(event, listener);
    });
  }

  on(event: string, listener: Listener): void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
  }

  /** Opens a new page and returns its session id. */
  async newPage(): Promise<string> {
    const { targetId } = await this.send<{ targetId: string }>('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send<{ sessionId: string }>('Target.attachToTarget', { targetId, flatten: true });
    return sessionId;
  }

  async close(): Promise<void> {
    if (this.child.exitCode === null) {
      void this.send('Browser.close').catch(() => undefined);
      const killer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
      await this.exited;
      clearTimeout(killer);
    }
    rmSync(this.profile, { recursive: true, force: true });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\0')) >= 0) {
      const message = JSON.parse(this.buffer.slice(0, end)) as Message;
      this.buffer = this.buffer.slice(end + 1);
      if (message.id !== undefined) {
        const waiter = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (!waiter) continue;
        if (message.error) waiter.reject(new Error(`${waiter.method}: ${message.error.message}`));
        else waiter.resolve(message.result ?? {});
      } else if (message.method) {
        for (const listener of [...(this.listeners.get(message.method) ?? [])]) listener(message.params ?? {}, message.sessionId);
      }
    }
  }
}
