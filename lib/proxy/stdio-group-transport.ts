import { spawn, type ChildProcess } from 'node:child_process';
import { PassThrough, type Readable } from 'node:stream';
import { ReadBuffer, SdkError, SdkErrorCode, serializeMessage, type JSONRPCMessage, type Transport } from '@modelcontextprotocol/client';
import { getDefaultEnvironment, type StdioServerParameters } from '@modelcontextprotocol/client/stdio';

/** How long a remote may take to exit after its stdin closed, then after SIGTERM (the SDK's own waits). */
const GRACE_MS = 2_000;
/** How long a SIGKILLed group may take to be gone before `close()` gives up waiting. */
const KILL_WAIT_MS = 1_000;

/**
 * The stdio client transport of `McpModule.proxy({ stdio })` on POSIX: the SDK's `StdioClientTransport` (same
 * parameters, environment defaults and stderr handling, same framing and bounds) but the remote starts in a
 * process group of its own (`detached`), and closing ends the whole group. A remote started through a wrapper —
 * `npx pkg` is npm → sh → node, a shell script, a launcher that does not forward signals — leaves no grandchild
 * behind; the SDK's transport signals its direct child only. Stopping follows the MCP stdio shutdown: stdin
 * closed, then SIGTERM to the group after 2 s, then SIGKILL after 2 s more.
 *
 * A group of its own no longer receives the terminal's Ctrl-C: while a group runs, SIGINT, SIGTERM and SIGHUP
 * this process would die of (no listener of the application's) are passed on to the groups before this process
 * dies of them as it would have, and its exit ends them too (`forwardSignals`).
 *
 * It keeps the structural contract the SDK client reads to probe `server/discover` on a disposable sibling
 * process (`_serverParams`, its own `_dispose`, a constructor taking the same parameters), so a remote that exits
 * on a request before `initialize` still falls back to the 2025 handshake, as with the SDK's transport.
 */
export class StdioGroupTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Read by the SDK client: the parameters a disposable probe sibling is started with. */
  readonly _serverParams: StdioServerParameters;
  private child?: ChildProcess;
  private readonly buffer: ReadBuffer;
  private readonly stderrStream: PassThrough | null;

  constructor(server: StdioServerParameters) {
    this._serverParams = server;
    this.buffer = new ReadBuffer({ maxBufferSize: server.maxBufferSize });
    this.stderrStream = server.stderr === 'pipe' || server.stderr === 'overlapped' ? new PassThrough() : null;
  }

  /** The remote's stderr when `stderr: 'pipe'`, there before `start()` so that no early line is lost. */
  get stderr(): Readable | null {
    return this.stderrStream ?? this.child?.stderr ?? null;
  }

  /** The remote's pid, which is also its process group's id. */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  start(): Promise<void> {
    if (this.child) throw new Error('StdioGroupTransport already started: Client.connect() starts it.');
    const { command, args = [], env, cwd, stderr = 'inherit' } = this._serverParams;
    return new Promise((resolve, reject) => {
      const child = spawn(command, args, {
        env: { ...getDefaultEnvironment(), ...env },
        stdio: ['pipe', 'pipe', this.stderrStream ? 'pipe' : (stderr as never)],
        shell: false,
        cwd,
        detached: true,
      });
      this.child = child;
      // Known from now on (not from 'spawn'): an exit in between must end this group too.
      if (child.pid !== undefined) {
        groups.add(child);
        forwardSignals();
      }
      child.on('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
      child.on('spawn', () => resolve());
      child.on('close', () => {
        // Its pipes are closed: whatever is left of its group (a daemon it started) goes with it.
        void endGroup(child, true);
        if (this.child === child) this.child = undefined;
        this.onclose?.();
      });
      child.stdin?.on('error', (error) => this.onerror?.(error));
      child.stdout?.on('data', (chunk: Buffer) => {
        try {
          this.buffer.append(chunk);
          this.read();
        } catch (error) {
          this.onerror?.(error as Error);
          this.close().catch(() => undefined);
        }
      });
      child.stdout?.on('error', (error) => this.onerror?.(error));
      if (this.stderrStream && child.stderr) child.stderr.pipe(this.stderrStream);
    });
  }

  private read(): void {
    for (;;) {
      try {
        const message = this.buffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      const stdin = this.child?.stdin;
      if (!stdin) throw new SdkError(SdkErrorCode.NotConnected, 'Not connected');
      if (stdin.write(serializeMessage(message))) resolve();
      else stdin.once('drain', resolve);
    });
  }

  /**
   * Ends the remote and its group (stdin closed, SIGTERM, SIGKILL), resolved once they are gone; its pipes are
   * destroyed then, so that a process outside the group holding them keeps nothing of this one open.
   */
  close(): Promise<void> {
    return this.end(true);
  }

  /** Read by the SDK client: ends a disposable probe sibling (its stderr ignored) signal first, as the SDK's does. */
  _dispose(): Promise<void> {
    return this.end(false);
  }

  private async end(gently: boolean): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (child) {
      await endGroup(child, gently);
      for (const stream of [child.stdout, child.stdin, child.stderr]) stream?.destroy();
    }
    this.buffer.clear();
  }
}

/** The running groups (by their leader), for the signals and exit of this process. */
const groups = new Set<ChildProcess>();
const ending = new WeakMap<ChildProcess, Promise<void>>();

/** Ends `child`'s group (`gently`: its stdin closed first, SIGTERM after a grace), once however many callers ask. */
function endGroup(child: ChildProcess, gently: boolean): Promise<void> {
  let ended = ending.get(child);
  if (!ended) {
    ended = stop(child, gently).finally(() => {
      groups.delete(child);
      if (groups.size === 0) stopForwarding();
    });
    ending.set(child, ended);
  }
  return ended;
}

async function stop(child: ChildProcess, gently: boolean): Promise<void> {
  try {
    child.stdin?.end();
  } catch {
    // its stdin is gone already
  }
  if (gently && (await gone(child, GRACE_MS))) return;
  signal(child, 'SIGTERM');
  if (await gone(child, GRACE_MS)) return;
  signal(child, 'SIGKILL');
  await gone(child, KILL_WAIT_MS);
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    // A negative pid is the process group whose id it is: the leader's pid (`detached` made it a group leader).
    if (child.pid !== undefined) process.kill(-child.pid, name);
  } catch {
    // ESRCH: nothing of the group is left
  }
}

/** Whether the leader has exited and nothing of its group is left, waiting up to `ms` for it. */
async function gone(child: ChildProcess, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if ((child.exitCode !== null || child.signalCode !== null || child.pid === undefined) && !groupAlive(child.pid)) return true;
    if (Date.now() >= until) return false;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function groupAlive(pgid: number | undefined): boolean {
  if (pgid === undefined) return false;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const FORWARDED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let forwarding = false;

/**
 * While a group runs: a signal this process would die of (it has no other listener) is passed on to every
 * group, then raised again with no listener left, so this process dies of it as it would have. With a listener
 * of the application's (`enableShutdownHooks()`, Nest's, `mcp-reflect dev`), that listener closes the
 * application, which ends the groups; nothing is passed on here. Its exit (`process.exit()`, the end of its
 * work) sends SIGTERM to the groups left.
 */
function forwardSignals(): void {
  if (forwarding) return;
  forwarding = true;
  // First among the listeners: when it runs, a `process.once()` listener of the application's is still counted.
  for (const name of FORWARDED) process.prependListener(name, onSignal);
  process.on('exit', onExit);
}

function stopForwarding(): void {
  if (!forwarding) return;
  forwarding = false;
  for (const name of FORWARDED) process.off(name, onSignal);
  process.off('exit', onExit);
}

function onSignal(name: NodeJS.Signals): void {
  if (process.listenerCount(name) > 1) return;
  for (const child of groups) signal(child, name);
  stopForwarding();
  process.kill(process.pid, name);
}

function onExit(): void {
  for (const child of groups) signal(child, 'SIGTERM');
}
