import { AsyncLocalStorage } from 'node:async_hooks';
import type { ProviderRecord } from './module-record';

/**
 * The instances of one MCP request (a tool call): request-scoped providers are built here once per request
 * and dropped with it. `values` holds what only the request knows, such as its Context.
 */
export class RequestScope {
  readonly instances = new Map<ProviderRecord, unknown>();
  /** Providers whose construction is under way in this scope, for forwardRef cycles. */
  readonly building = new Map<ProviderRecord, object | undefined>();

  constructor(readonly values: Readonly<Record<string, unknown>> = {}) {}
}

/** Carries the current request scope through async code, so `ModuleRef.resolve()` inside a call sees it. */
export const requestStorage = new AsyncLocalStorage<RequestScope>();
