import { MCP_OPTIONS } from '../../constants';
import { STOPPING_HOOKS, type Container, type ModuleRecord } from '../../di';
import { BootstrapError, BootstrapErrorCode } from '../../errors';
import type { ModuleImport } from '../../interfaces';
import type { McpModuleOptions } from '../mcp-options';

/** One `McpModule.forRoot()` of the module graph: its options, and the modules it serves (all, when unset). */
export interface ServerDeclaration {
  readonly options: McpModuleOptions;
  /** The McpModule record its options live in: its own McpComponents are there. */
  readonly module: ModuleRecord;
  readonly served?: ReadonlySet<ModuleRecord>;
}

/**
 * The servers the graph declares, each checked: several need distinct names and each its `modules` (else which
 * server serves a module would depend on import order).
 */
export function findServers(container: Container): ServerDeclaration[] {
  const declared = [...container.providers()].filter((record) => record.token === MCP_OPTIONS);
  const servers = declared.map((record) => {
    const options = record.instance as McpModuleOptions;
    return { options, module: record.module, ...(options?.modules ? { served: servedModules(container, options) } : {}) };
  });
  if (servers.length <= 1) return servers;
  const names = servers.map((s) => s.options.name);
  const unnamed = servers.filter((s) => !s.options.modules);
  if (unnamed.length > 0) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot create the MCP servers of ${container.root.name}: it declares ${servers.length} (${names.map((n) => `'${n}'`).join(', ')}), and ${unnamed.map((s) => `'${s.options.name}'`).join(', ')} does not name the modules it serves.\n` +
        `Fix: give each McpModule.forRoot() the modules it serves, e.g. McpModule.forRoot({ name: 'admin', version: '1.0.0', modules: [AdminModule] }).`,
    );
  }
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidOption,
      `Cannot create the MCP servers of ${container.root.name}: two McpModule.forRoot() are named '${twice}', and a server is known by its name.\n` +
        `Fix: give each server its own name.`,
    );
  }
  return servers;
}

/** The modules a server names, and every module they import (transitively). */
function servedModules(container: Container, options: McpModuleOptions): ReadonlySet<ModuleRecord> {
  const classes = new Set((options.modules ?? []).map(moduleClass));
  const served = new Set<ModuleRecord>();
  const visit = (record: ModuleRecord) => {
    if (served.has(record)) return;
    served.add(record);
    record.imports.forEach(visit);
  };
  container.moduleRecords.filter((record) => classes.has(record.metatype)).forEach(visit);
  return served;
}

function moduleClass(entry: ModuleImport): Function | undefined {
  if (typeof entry === 'function') return entry;
  if (entry && typeof entry === 'object' && typeof (entry as { module?: unknown }).module === 'function') return (entry as { module: Function }).module;
  return undefined;
}

/**
 * The lifecycle of a container shared by several servers: `onModuleInit` runs once, before the first is built;
 * `onApplicationBootstrap` once every server is built (a proxy's bootstrap needs its server); the shutdown
 * hooks when the last closes. A server that fails to build fails the others' wait instead of leaving it open.
 */
export class SharedLifecycle {
  private initialised?: Promise<void>;
  private waiting: number;
  private open: number;
  private readonly bootstrapped: Promise<void>;
  private release!: () => void;
  private abort!: (error: unknown) => void;

  constructor(
    private readonly container: Container,
    servers: number,
  ) {
    this.waiting = servers;
    this.open = servers;
    this.bootstrapped = new Promise<void>((resolve, reject) => {
      this.release = resolve;
      this.abort = reject;
    });
    this.bootstrapped.catch(() => undefined);
  }

  init(): Promise<void> {
    return (this.initialised ??= this.container.callHook('onModuleInit'));
  }

  /** One more server is built; the last one runs `onApplicationBootstrap`, which every one of them awaits. */
  ready(): Promise<void> {
    if (--this.waiting === 0) this.container.callHook('onApplicationBootstrap').then(this.release, this.abort);
    return this.bootstrapped;
  }

  fail(error: unknown): void {
    this.abort(error);
  }

  async shutdown(signal?: string): Promise<void> {
    if (--this.open > 0 || this.released) return;
    for (const hook of STOPPING_HOOKS) await this.container.callHook(hook, signal);
  }

  /**
   * A bootstrap failed: whatever the providers started (a proxy's child process, a Redis connection, a listener) is
   * released once, for every server of the container, through the stopping hooks (each bounded); their failures.
   */
  abandon(bound: number): Promise<Error[]> {
    return (this.released ??= this.container.release('bootstrap-failed', bound));
  }

  private released?: Promise<Error[]>;
}
