/** Where a progress line goes: `process.stderr`, or any stream with `write` (a TTY has `isTTY` and `columns`). */
export interface ProgressStream {
  write(chunk: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface ProgressOptions {
  /** Print nothing at all (`--quiet`). */
  readonly quiet?: boolean;
  /**
   * Milliseconds before the first line shows (default 0): a run that ends sooner prints only its `done()` text.
   * Updates made meanwhile are kept, and the latest shows when the delay ends.
   */
  readonly delay?: number;
  /** Off a TTY, the least milliseconds between two printed updates (default 2000); the first prints at once. */
  readonly interval?: number;
  /** The clock (tests pass their own). */
  readonly now?: () => number;
}

/** A one-line status of a long run. */
export interface Progress {
  /** The current step, e.g. `Loading dist/app.module.js`. */
  update(text: string): void;
  /** Ends the run: clears the line on a TTY, then prints `text` (if given) on a line of its own. Later calls do nothing. */
  done(text?: string): void;
}

const clearLine = '\r\x1b[K';

/**
 * A progress reporter on `stream` (stderr: stdout carries a command's output). On a TTY, one line rewritten in
 * place with `\r`; elsewhere (a pipe, a CI log) plain lines, at most one per `interval`; with `quiet`, silent.
 *
 * @example
 * const progress = createProgress(process.stderr, { quiet: Boolean(options.quiet) });
 * progress.update('Reading tsconfig.json');
 * progress.done('Wrote src/metadata.ts (12 tools)');
 */
export function createProgress(stream: ProgressStream, options: ProgressOptions = {}): Progress {
  if (options.quiet) return { update() {}, done() {} };
  const now = options.now ?? Date.now;
  const tty = stream.isTTY === true;
  const interval = options.interval ?? 2000;
  let pending: string | undefined;
  let shown = false; // a TTY line is on screen
  let lastPrinted = -Infinity;
  let ended = false;
  let waiting = (options.delay ?? 0) > 0;
  const timer = waiting
    ? setTimeout(() => {
        waiting = false;
        if (pending !== undefined) show(pending);
      }, options.delay)
    : undefined;
  timer?.unref();

  const show = (text: string) => {
    pending = undefined;
    if (tty) {
      const width = Math.max((stream.columns ?? 80) - 1, 10);
      stream.write(`${clearLine}${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
      shown = true;
      return;
    }
    const at = now();
    if (at - lastPrinted < interval) return;
    lastPrinted = at;
    stream.write(`${text}\n`);
  };

  return {
    update(text) {
      if (ended) return;
      if (waiting) pending = text;
      else show(text);
    },
    done(text) {
      if (ended) return;
      ended = true;
      if (timer) clearTimeout(timer);
      if (shown) stream.write(clearLine);
      if (text !== undefined) stream.write(`${text}\n`);
    },
  };
}

/** Where a command writes while it runs (its progress line); what it returns is printed when it ends. */
export interface CliIo {
  readonly stderr: ProgressStream;
}
