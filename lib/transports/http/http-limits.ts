import { getHeapSpaceStatistics, getHeapStatistics } from 'node:v8';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import { DEFAULT_IPV6_PREFIX, isIpv6Prefix } from '../../server/client-address';
import { FairShareTable, type HeldPlace } from './fair-share';
import type { HttpOptions } from './http-options';

/** Heap one 2025-era session holds while idle (its SDK server, transport and registries), measured. */
const SESSION_HEAP = 16 * 1024;
/** Above this share of the old generation's limit, the endpoint is under memory pressure. */
const PRESSURE = 0.85;
const MIB = 1024 * 1024;

/**
 * The most the old generation (where what lives on is kept) may hold: `--max-old-space-size` when the process
 * was given one (execArgv or NODE_OPTIONS), else V8's heap limit less what it reserves for the young generation
 * (about 64 MiB with the default semi-spaces). The process runs out of memory when this fills, well before
 * `heap_size_limit`, which counts the young generation's reserve too.
 */
export function oldSpaceLimit(): number {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  for (const flag of flags) {
    const given = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(flag);
    if (given) return Number(given[1]) * MIB;
  }
  const { heap_size_limit } = getHeapStatistics();
  return Math.max(heap_size_limit / 2, heap_size_limit - 64 * MIB);
}

/** What the old generation holds now: the heap in use less the young generation's. */
function oldSpaceUsed(): number {
  const young = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_used_size ?? 0;
  return getHeapStatistics().used_heap_size - young;
}
/** How often the heap is looked at (it is read when a request needs to know, at most this often). */
const SAMPLE_MS = 100;

/** Every bound of an HTTP endpoint, with its defaults applied (docs/reliability.md lists them). */
export interface HttpLimits {
  readonly maxRequestBodySize: number;
  readonly maxBodiesInFlight: number;
  readonly maxBodiesInFlightPerClient: number;
  readonly maxBodyBytesInFlight: number;
  readonly maxBodyBytesInFlightPerClient: number;
  readonly requestTimeoutMs: number;
  readonly maxJsonDepth: number;
  readonly maxJsonContainers: number;
  readonly maxBatchSize: number;
  readonly maxPendingResponseBytes: number;
  readonly maxPendingResponseBytesPerClient: number;
  readonly writeTimeoutMs: number;
  readonly maxSessions: number;
  readonly maxSessionsPerClient: number;
  readonly maxListenStreams: number;
  readonly maxListenStreamsPerClient: number;
  readonly listenIdleTimeoutMs: number;
  /** The prefix length IPv6 client addresses are grouped by. */
  readonly ipv6Prefix: number;
}

/**
 * The bounds of an endpoint: the options given, else defaults that hold under the memory this process has
 * (the heap limit, `--max-old-space-size`): sessions, bodies being received and answers waiting for slow readers
 * each take at most a share of it.
 */
export function resolveLimits(options: HttpOptions, heapLimit = oldSpaceLimit()): HttpLimits {
  if (options.ipv6Prefix !== undefined && !isIpv6Prefix(options.ipv6Prefix)) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot serve over HTTP with ipv6Prefix ${JSON.stringify(options.ipv6Prefix)}: it is the length in bits of the IPv6 network a client's address is counted by, an integer from 0 to 128.\n` +
        'Fix: leave it out (64: one client per /64, what a host is usually given), or give e.g. ipv6Prefix: 56.',
    );
  }
  const maxRequestBodySize = options.maxRequestBodySize ?? 4 * 1024 * 1024;
  // A quarter of the heap (its old generation) for idle sessions; an eighth for bodies in flight and as much for
  // answers being written.
  const maxSessions = options.maxSessions ?? clamp(Math.floor(heapLimit / 4 / SESSION_HEAP), 100, 10_000);
  const share = clamp(Math.floor(heapLimit / 8), 2 * maxRequestBodySize, 256 * 1024 * 1024);
  const maxBodyBytesInFlight = options.maxBodyBytesInFlight ?? share;
  const maxPendingResponseBytes = options.maxPendingResponseBytes ?? share;
  return {
    maxRequestBodySize,
    maxBodiesInFlight: options.maxBodiesInFlight ?? 256,
    maxBodiesInFlightPerClient: options.maxBodiesInFlightPerClient ?? 16,
    maxBodyBytesInFlight,
    // One client gets a quarter of what is shared, and always room for one body of the largest size.
    maxBodyBytesInFlightPerClient: options.maxBodyBytesInFlightPerClient ?? Math.max(maxRequestBodySize, Math.floor(maxBodyBytesInFlight / 4)),
    requestTimeoutMs: options.requestTimeoutMs ?? 30_000,
    maxJsonDepth: options.maxJsonDepth ?? 64,
    maxJsonContainers: options.maxJsonContainers ?? 100_000,
    maxBatchSize: options.maxBatchSize ?? 100,
    maxPendingResponseBytes,
    maxPendingResponseBytesPerClient: options.maxPendingResponseBytesPerClient ?? Math.floor(maxPendingResponseBytes / 4),
    writeTimeoutMs: options.writeTimeoutMs ?? 30_000,
    maxSessions,
    // A tenth of the derived session bound (so that ten clients are needed to fill it), or up to the one given.
    maxSessionsPerClient: options.maxSessionsPerClient ?? Math.min(1_000, options.maxSessions ?? Math.max(1, Math.floor(maxSessions / 10))),
    maxListenStreams: options.maxListenStreams ?? 1_024,
    maxListenStreamsPerClient: options.maxListenStreamsPerClient ?? 16,
    listenIdleTimeoutMs: options.listenIdleTimeoutMs ?? 10 * 60_000,
    ipv6Prefix: options.ipv6Prefix ?? DEFAULT_IPV6_PREFIX,
  };
}

function clamp(value: number, least: number, most: number): number {
  return Math.max(least, Math.min(most, value));
}

/** What one client holds at once; forgotten when nothing refers to it. */
interface Holding {
  /** Tickets, pending answers and streams that count here. */
  refs: number;
  bodies: number;
  bodyBytes: number;
  pendingBytes: number;
}

/** The bytes of one body being received, counted against its client and the endpoint; `release` once read. */
export interface BodyTicket {
  /** Counts `bytes` more; false when they would cross a bound (the body is then refused). */
  add(bytes: number): boolean;
  release(): void;
}

/** The bytes of one answer not yet taken by its (maybe slow) reader. */
export interface PendingBytes {
  add(bytes: number): void;
  sub(bytes: number): void;
  release(): void;
}

/** One admitted `subscriptions/listen` stream. */
export interface ListenTicket {
  /** The stream ended: its place is free. */
  release(): void;
  /** How to end the stream, should a newcomer need its place (the fair share of a full table). */
  bind(end: () => void): void;
}

/** A listen stream's place: its client, when it opened, and how to end it. */
interface ListenPlace extends HeldPlace {
  end?: () => void;
  ended: boolean;
}

/** Why a client's request is refused before its body is read or it is dispatched (the caller answers). */
export type Refusal = { readonly status: 429 | 503; readonly message: string };

/**
 * The admission bounds of one endpoint, per client and in all: bodies being received (count and bytes), bytes of
 * answers waiting for slow readers, `subscriptions/listen` streams, and memory pressure. A client is a key: the
 * remote address, or what `clientKey` derives; requests without one count only towards the totals.
 */
export class Admission {
  private readonly clients = new Map<string, Holding>();
  private readonly total: Holding = { refs: 0, bodies: 0, bodyBytes: 0, pendingBytes: 0 };
  /** The listen streams by client: the bound per client, in all, and the fair share of a full table. */
  private readonly listens = new FairShareTable<ListenPlace>();
  private sampledAt = 0;
  private pressure = false;
  private readonly pressureBytes = oldSpaceLimit() * PRESSURE;

  constructor(readonly limits: HttpLimits) {}

  /** Whether the heap is nearly full (sampled at most every 100 ms): new sessions are refused, idle ones ended. */
  underPressure(): boolean {
    const now = Date.now();
    if (now - this.sampledAt >= SAMPLE_MS) {
      this.sampledAt = now;
      this.pressure = oldSpaceUsed() > this.pressureBytes;
    }
    return this.pressure;
  }

  /** A client whose earlier answers are still unread beyond its share, or an endpoint full of them: refused. */
  slowReader(client: string | undefined): Refusal | undefined {
    const { maxPendingResponseBytes, maxPendingResponseBytesPerClient } = this.limits;
    const own = client === undefined ? undefined : this.clients.get(client);
    if (own && own.pendingBytes > maxPendingResponseBytesPerClient) {
      return { status: 429, message: `Too many unread answers: this client has over ${maxPendingResponseBytesPerClient} bytes of responses it has not read yet. Read them, then retry.` };
    }
    if (this.total.pendingBytes > maxPendingResponseBytes) return { status: 503, message: 'Server busy: too many responses are waiting for slow readers. Retry shortly.' };
    return undefined;
  }

  /** Admits one body of `declared` bytes (its Content-Length, when sent), or says why not. */
  enterBody(client: string | undefined, declared: number): BodyTicket | Refusal {
    const { maxBodiesInFlight, maxBodiesInFlightPerClient, maxBodyBytesInFlight, maxBodyBytesInFlightPerClient } = this.limits;
    const own = this.take(client);
    if (own && (own.bodies >= maxBodiesInFlightPerClient || own.bodyBytes + declared > maxBodyBytesInFlightPerClient)) {
      this.drop(client, own);
      return { status: 429, message: `Too many request bodies from this client at once (at most ${maxBodiesInFlightPerClient}, ${maxBodyBytesInFlightPerClient} bytes): finish sending the others first.` };
    }
    if (this.total.bodies >= maxBodiesInFlight || this.total.bodyBytes + declared > maxBodyBytesInFlight) {
      this.drop(client, own);
      return { status: 503, message: 'Server busy: too many request bodies are being received. Retry shortly.' };
    }
    if (own) own.bodies++;
    this.total.bodies++;
    let counted = 0;
    let released = false;
    return {
      add: (bytes) => {
        if (released) return false;
        if (this.total.bodyBytes + bytes > maxBodyBytesInFlight || (own && own.bodyBytes + bytes > maxBodyBytesInFlightPerClient)) return false;
        counted += bytes;
        this.total.bodyBytes += bytes;
        if (own) own.bodyBytes += bytes;
        return true;
      },
      release: () => {
        if (released) return;
        released = true;
        this.total.bodies--;
        this.total.bodyBytes -= counted;
        if (own) {
          own.bodies--;
          own.bodyBytes -= counted;
        }
        this.drop(client, own);
      },
    };
  }

  /** Counts the unread bytes of one answer to `client`. */
  pending(client: string | undefined): PendingBytes {
    const own = this.take(client);
    let held = 0;
    let released = false;
    const change = (bytes: number) => {
      if (released) return;
      held += bytes;
      this.total.pendingBytes += bytes;
      if (own) own.pendingBytes += bytes;
    };
    return {
      add: change,
      sub: (bytes) => change(-bytes),
      release: () => {
        if (released) return;
        change(-held);
        released = true;
        this.drop(client, own);
      },
    };
  }

  /**
   * Admits one `subscriptions/listen` stream, or says why not: the client holds its most (429); all streams are
   * open and the client holds its fair share (503), else the oldest stream of the client holding the most (at
   * least two more than the newcomer) ends to make room, so that whoever filled the table does not lock others out.
   */
  enterListen(client: string | undefined): ListenTicket | Refusal {
    const { maxListenStreams, maxListenStreamsPerClient } = this.limits;
    if (client !== undefined && this.listens.count(client) >= maxListenStreamsPerClient) {
      return { status: 429, message: `Too many subscriptions/listen streams from this client (at most ${maxListenStreamsPerClient}): close one first.` };
    }
    while (this.listens.size >= maxListenStreams) {
      const victim = this.listens.fairShareVictim(client);
      if (!victim) return { status: 503, message: 'Too many subscriptions/listen streams are open: retry later.' };
      // Out of the count at once; ended now, or as soon as its stream exists.
      this.listens.delete(victim);
      victim.ended = true;
      victim.end?.();
    }
    const place: ListenPlace = { client, lastSeen: Date.now(), ended: false };
    this.listens.add(place);
    return {
      release: () => {
        place.ended = true;
        this.listens.delete(place);
      },
      bind: (end) => {
        if (place.ended) end();
        else place.end = end;
      },
    };
  }

  private holding(client: string): Holding {
    let own = this.clients.get(client);
    if (!own) this.clients.set(client, (own = { refs: 0, bodies: 0, bodyBytes: 0, pendingBytes: 0 }));
    return own;
  }

  /** A holding that something will count in (its refs are taken at once, so no release forgets it meanwhile). */
  private take(client: string | undefined): Holding | undefined {
    if (client === undefined) return undefined;
    const own = this.holding(client);
    own.refs++;
    return own;
  }

  private drop(client: string | undefined, own: Holding | undefined): void {
    if (!own || --own.refs > 0) return;
    this.clients.delete(client!);
  }
}
