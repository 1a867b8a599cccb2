import type { ComponentTransforms } from '../interfaces';

/** How to start a remote MCP server on stdio (`McpModule.proxy({ stdio })`). */
export interface McpProxyStdio {
  /** The executable, e.g. `process.execPath` or `npx`. */
  readonly command: string;
  readonly args?: readonly string[];
  /** Its environment (default: the SDK's safe default environment, not this process's). */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

import type { Transport } from '@modelcontextprotocol/client';

/** Options of `McpModule.proxy()`: a remote MCP server whose components this server serves as its own. */
export interface McpProxyOptions {
  /**
   * Prefixes the remote's components as a namespace does (`<namespace>_<tool>`, `scheme://<namespace>/…`);
   * required, so that two proxied servers (or a proxied and a local one) cannot collide.
   */
  readonly namespace: string;
  /**
   * In an application with several servers (`McpModule.forRoot({ name, modules })` more than once): the name
   * of the server that serves the remote's components.
   */
  readonly server?: string;
  /** A server started as a child process, spoken to on its stdin/stdout. */
  readonly stdio?: McpProxyStdio;
  /** A Streamable HTTP endpoint (both protocol eras, as the SDK client negotiates them). */
  readonly url?: string | URL;
  /**
   * A transport of your own instead of `stdio` or `url`: called for each connection (the first and every
   * reconnection), it returns a new, unstarted SDK client transport — one end of an `InMemoryTransport` pair
   * whose other end an in-process server is connected to, say. `maxMessageBytes` is the transport's to enforce.
   */
  readonly transport?: () => Transport | Promise<Transport>;
  /** Headers sent with every HTTP request to `url` (an API key, say). The MCP caller's token is never forwarded. */
  readonly headers?: Readonly<Record<string, string>>;
  /** How long connecting (and listing the remote's components) may take, in ms (default 10 000). */
  readonly connectTimeout?: number;
  /** How long one forwarded request may take without progress, in ms (default 60 000; progress resets it). */
  readonly requestTimeout?: number;
  /** Reconnection after the remote is lost: the first delay and the longest, in ms (defaults 500 and 30 000, doubling). */
  readonly reconnect?: { readonly initialDelay?: number; readonly maxDelay?: number };
  /**
   * The protocol era to speak to the remote: `'auto'` (default: the SDK client probes with `server/discover`
   * and falls back to `initialize`), or one era pinned: `'2025-11-25'` (no probe) or `'2026-07-28'`.
   */
  readonly protocol?: 'auto' | '2025-11-25' | '2026-07-28';
  /**
   * The largest message the remote may send, in bytes (default 8 MiB): a bigger one fails the request it
   * answers (over stdio the remote is restarted: the rest of its output cannot be trusted).
   */
  readonly maxMessageBytes?: number;
  /**
   * Subscribe to the remote's resources (its first 100), when it supports subscriptions, so that its
   * `notifications/resources/updated` reach the clients subscribed here (default true).
   */
  readonly subscribe?: boolean;
  /** At most this many components of each kind are taken from the remote (default 1 000); the rest are left out, logged. */
  readonly maxComponents?: number;
  /** At most this many pages of each list are read (default 50), whatever the remote's cursors say; the rest are left out, logged. */
  readonly maxListPages?: number;
  /**
   * The largest one component may be as the remote lists it, its schemas included, in bytes of JSON (default
   * 256 KiB): a bigger one is left out, logged; the rest of the remote is served.
   */
  readonly maxComponentBytes?: number;
  /**
   * The most the proxy keeps of the remote's lists, all kinds together, in bytes of JSON (default 8 MiB): the
   * components past it are left out, logged; what fit is served.
   */
  readonly maxCatalogueBytes?: number;
  /**
   * The least time between two listings of the remote after its `list_changed`, in ms (default 1 000): the
   * notifications that arrive meanwhile make one listing, and clients hear at most one `list_changed` per kind
   * per listing.
   */
  readonly relistInterval?: number;
  /** Most calls of the remote in flight at once, all callers together (default 256); one more fails at once. */
  readonly maxCalls?: number;
  /**
   * Most calls of the remote one caller may have in flight at once (default 32), the caller counted as the HTTP
   * endpoint counts clients (`clientKey`, else the remote address); one more fails at once. Calls with no such
   * key (stdio, in memory) count only towards `maxCalls`.
   */
  readonly maxCallsPerClient?: number;
  /**
   * Transforms of the remote's components, keyed by the names the remote gives them (the namespace is applied
   * after): rename a tool or an argument, reword it, hide an argument with a fixed value or one computed from
   * the caller's Context, add tags, disable (docs/composition.md#transforms). A name the remote does not list is
   * logged and skipped.
   */
  readonly transforms?: ComponentTransforms;
}
