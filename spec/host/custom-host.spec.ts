import 'reflect-metadata';
import { McpComponents, Param, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import type { Context } from '../../lib/context';
import type { ExecutionContext, InjectionToken } from '../../lib/interfaces';
import type { MethodHost, RequestHandle } from '../../lib/invocation';
import type { GeneratedTypes } from '../../lib/metadata';
import { composeApplication, type McpHost } from '../../lib/host';
import { NO_ENHANCERS, type ComponentEnhancers } from '../../lib/pipeline';

/**
 * The host seam of issue 23: an application is built on whatever supplies its instances. This host is not the
 * standalone container: it hands out instances from a map, opens request handles of its own (a per-request
 * instance is built per call inside it), supplies enhancers of its own (a guard that hides one tool), and runs
 * a lifecycle of its own. A real SDK client sees an ordinary server.
 */
class Greeter {
  @Tool({ description: 'Greets someone' })
  greet(@Param('name') name: string): string {
    return `Hello, ${name}`;
  }

  @Tool()
  secret(): string {
    return 'hidden';
  }
}

let built = 0;
class PerCall {
  readonly id = ++built;
  @Tool()
  whoami(): string {
    return `instance ${this.id}`;
  }
}

class MapHandle implements RequestHandle {
  readonly instances = new Map<Function, object>();
  constructor(readonly context: Context) {}
  run<T>(fn: () => T): T {
    return fn();
  }
}

/** Hides the tool 'secret' from lists and calls: the host's own guard, not an EnhancerChain. */
function hostGuard(log: string[]): ComponentEnhancers {
  const self: ComponentEnhancers = {
    guards: true,
    interceptors: false,
    filters: false,
    pipes: false,
    requestScoped: false,
    async canActivate(execution: ExecutionContext) {
      log.push(`guard ${(execution as unknown as { phase: string }).phase}`);
      return false;
    },
    intercept: (_e, _r, next) => next(),
    hasPipes: () => false,
    transform: async (_i, value) => value,
    recover: async () => undefined,
    withoutGuards: () => NO_ENHANCERS,
  };
  return self;
}

class MapHost implements McpHost {
  readonly log: string[] = [];
  readonly options = { name: 'map-host', version: '1.0.0' };
  readonly name = 'MapHost';
  readonly middleware = [];
  readonly handles: MapHandle[] = [];
  readonly openScope = (context: Context) => {
    const handle = new MapHandle(context);
    this.handles.push(handle);
    return handle;
  };
  private readonly providers = new Map<InjectionToken, unknown>([[McpComponents, new McpComponents()]]);

  async init() {
    this.log.push('init');
  }
  async components(types: GeneratedTypes): Promise<readonly MethodHost[]> {
    this.log.push('components');
    const perCall = (request: RequestHandle) => {
      if (!(request instanceof MapHandle)) throw new TypeError('not a handle of this host');
      let own = request.instances.get(PerCall);
      if (!own) request.instances.set(PerCall, (own = new PerCall()));
      return own;
    };
    return [
      { target: Greeter, instance: new Greeter(), types },
      { target: PerCall, resolve: perCall, types },
    ];
  }
  adopt(instance: object, types: GeneratedTypes): MethodHost {
    return { target: instance.constructor, instance, types };
  }
  enhancersFor(component: MethodHost, method: string): ComponentEnhancers {
    return component.target === Greeter && method === 'secret' ? hostGuard(this.log) : NO_ENHANCERS;
  }
  has(token: InjectionToken) {
    return this.providers.has(token);
  }
  get<T>(token: InjectionToken) {
    return this.providers.get(token) as T | undefined;
  }
  async ready() {
    this.log.push('ready');
  }
  async shutdown(signal?: string) {
    this.log.push(`shutdown ${signal ?? ''}`.trim());
  }
}

describe('an application on a host of its own', () => {
  it('serves the components the host supplies, with its request handles, enhancers and lifecycle', async () => {
    const host = new MapHost();
    const { app } = await composeApplication(host);
    expect(host.log).toEqual(['init', 'components', 'ready']);
    const client = await createTestClient(app);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual(['greet', 'whoami']);
      expect(tools.find((t) => t.name === 'greet')?.inputSchema).toMatchObject({ properties: { name: { type: 'string' } }, required: ['name'] });
      expect(host.log).toContain('guard list');

      expect(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).toMatchObject({ content: [{ type: 'text', text: 'Hello, Ada' }] });
      expect(await client.callTool({ name: 'greet', arguments: { name: { first: 'Ada' } } })).toMatchObject({ isError: true });
      const denied = await client.callTool({ name: 'secret', arguments: {} }).catch((error: Error) => ({ error: error.message }));
      expect(JSON.stringify(denied)).toMatch(/secret/);
      expect(JSON.stringify(denied)).not.toMatch(/hidden/);
      expect(host.log).toContain('guard call');

      const first = await client.callTool({ name: 'whoami', arguments: {} });
      const second = await client.callTool({ name: 'whoami', arguments: {} });
      expect(first).not.toEqual(second); // one instance per call, built in the host's own handle
      expect(host.handles.length).toBeGreaterThanOrEqual(2);

      // The application's controls reach the host's McpComponents provider, and app.get() asks the host.
      app.get(McpComponents).tools.disable('greet');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['whoami']);
    } finally {
      await client.close();
    }
    expect(host.log.at(-1)).toBe('shutdown');
  });
});
