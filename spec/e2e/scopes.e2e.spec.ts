import 'reflect-metadata';
import {
  CONTEXT,
  Context,
  Ctx,
  Inject,
  Injectable,
  McpModule,
  Module,
  ModuleRef,
  Param,
  Scope,
  Tool,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

let built = 0;

@Injectable({ scope: Scope.REQUEST })
class RequestState {
  readonly serial = ++built;
  constructor(readonly context: Context) {}
}

@Injectable()
class Clock {
  now(): number {
    return 1;
  }
}

/** Request-scoped by bubbling: it depends on RequestState. */
@Injectable()
class AuditTools {
  constructor(
    readonly state: RequestState,
    readonly clock: Clock,
    @Inject(CONTEXT) readonly context: Context,
    readonly moduleRef: ModuleRef,
  ) {}

  @Tool({ description: 'Reports which instances served this request' })
  async whoami(@Param() delayMs: number, @Ctx() ctx: Context): Promise<Record<string, unknown>> {
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    const resolved = await this.moduleRef.resolve(RequestState);
    return {
      requestId: String(ctx.requestId),
      stateRequestId: String(this.state.context.requestId),
      tokenRequestId: String(this.context.requestId),
      serial: this.state.serial,
      sameStateViaModuleRef: resolved === this.state,
      clock: this.clock.now(),
    };
  }
}

@Injectable()
class PlainTools {
  readonly id = Math.random();
  @Tool() instanceId(): number {
    return this.id;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'scopes', version: '1.0.0' })],
  providers: [RequestState, Clock, AuditTools, PlainTools],
})
class ScopesModule {}

describe('request scope (through an SDK client)', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)(
    'gives each request its own instances and Context (%s)',
    async (protocolVersion) => {
      const client = await createTestClient(ScopesModule, { protocolVersion });
      try {
        const first = await client.callTool({ name: 'whoami', arguments: { delayMs: 0 } });
        const second = await client.callTool({ name: 'whoami', arguments: { delayMs: 0 } });
        const a = first.structuredContent as Record<string, unknown>;
        const b = second.structuredContent as Record<string, unknown>;
        expect(a.requestId).toBe(a.stateRequestId);
        expect(a.requestId).toBe(a.tokenRequestId);
        expect(a.sameStateViaModuleRef).toBe(true);
        expect(a.clock).toBe(1);
        expect(a.serial).not.toBe(b.serial);
        expect(a.requestId).not.toBe(b.requestId);

        const singleton1 = await client.callTool({ name: 'instanceId', arguments: {} });
        const singleton2 = await client.callTool({ name: 'instanceId', arguments: {} });
        expect(singleton1.content).toEqual(singleton2.content);
      } finally {
        await client.close();
      }
    },
  );

  it('keeps 1,000 concurrent calls apart', async () => {
    const client = await createTestClient(ScopesModule);
    try {
      const results = await Promise.all(
        Array.from({ length: 1000 }, (_, i) =>
          client.callTool({ name: 'whoami', arguments: { delayMs: i % 7 } }, { timeout: 60_000 }),
        ),
      );
      const payloads = results.map((r) => r.structuredContent as Record<string, unknown>);
      for (const p of payloads) {
        expect(p.requestId).toBe(p.stateRequestId);
        expect(p.requestId).toBe(p.tokenRequestId);
        expect(p.sameStateViaModuleRef).toBe(true);
      }
      expect(new Set(payloads.map((p) => p.serial)).size).toBe(1000);
      expect(new Set(payloads.map((p) => p.requestId)).size).toBe(1000);
    } finally {
      await client.close();
    }
  }, 60_000);
});
