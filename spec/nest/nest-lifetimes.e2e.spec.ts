import 'reflect-metadata';
import { Inject, Injectable, Module, Scope } from '@nestjs/common';
import { ContextIdFactory, NestFactory, REQUEST, type ContextId, type ContextIdStrategy, type HostComponentInfo } from '@nestjs/core';
import { Tool } from 'mcp-reflect';
import { McpModule, McpService, type McpRequest } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';

/** Transient and durable providers serve MCP calls as Nest defines them. */
let transientBuilt = 0;
@Injectable({ scope: Scope.TRANSIENT })
class TransientTools {
  readonly id = ++transientBuilt;
  @Tool()
  transient(): string {
    return `transient #${this.id}`;
  }
}

let durableBuilt = 0;
@Injectable({ scope: Scope.REQUEST, durable: true })
class TenantTools {
  readonly id = ++durableBuilt;
  constructor(@Inject(REQUEST) private readonly tenant: { tenant: string }) {}
  @Tool()
  tenantOf(): string {
    return `${this.tenant.tenant} #${this.id}`;
  }
}

/** Durable trees per tenant (Nest's documented pattern): the MCP request's caller picks the tenant. */
class TenantStrategy implements ContextIdStrategy<McpRequest> {
  private readonly tenants = new Map<string, ContextId>();
  attach(contextId: ContextId, request: McpRequest) {
    const tenant = request.auth?.subject ?? 'anonymous';
    let tenantId = this.tenants.get(tenant);
    if (!tenantId) this.tenants.set(tenant, (tenantId = ContextIdFactory.create()));
    return {
      resolve: (info: HostComponentInfo) => (info.isTreeDurable ? tenantId! : contextId),
      payload: { tenant },
    };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'lifetimes', version: '1.0.0', http: false })], providers: [TransientTools, TenantTools] })
class AppModule {}

const text = (result: unknown) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text;

describe('Nest provider lifetimes behind MCP calls', () => {
  afterEach(() => ContextIdFactory.apply(undefined as never));

  it('builds a transient component per MCP request', async () => {
    const context = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const client = await createTestClient(context.get(McpService).application);
    try {
      const first = text(await client.callTool({ name: 'transient', arguments: {} }));
      const second = text(await client.callTool({ name: 'transient', arguments: {} }));
      expect(first).toMatch(/^transient #\d+$/);
      expect(first).not.toBe(second);
    } finally {
      await client.close();
      await context.close();
    }
  });

  it('keeps one durable tree per tenant through a ContextIdStrategy that reads the McpRequest', async () => {
    ContextIdFactory.apply(new TenantStrategy());
    const context = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const app = context.get(McpService).application;
    const ada = await createTestClient(app, { auth: { subject: 'ada' } });
    const bob = await createTestClient(app, { auth: { subject: 'bob' } });
    Object.assign(ada, { close: () => Object.getPrototypeOf(ada).close.call(ada) });
    Object.assign(bob, { close: () => Object.getPrototypeOf(bob).close.call(bob) });
    try {
      const a1 = text(await ada.callTool({ name: 'tenantOf', arguments: {} }));
      const a2 = text(await ada.callTool({ name: 'tenantOf', arguments: {} }));
      const b1 = text(await bob.callTool({ name: 'tenantOf', arguments: {} }));
      expect(a1).toMatch(/^ada #\d+$/);
      expect(a2).toBe(a1); // the same durable instance for the same tenant
      expect(b1).toMatch(/^bob #\d+$/);
    } finally {
      await ada.close();
      await bob.close();
      await context.close();
    }
  });
});
