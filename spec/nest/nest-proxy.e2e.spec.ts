import 'reflect-metadata';
import { Injectable, Module, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD, NestFactory } from '@nestjs/core';
import { Param, Tool } from 'mcp-reflect';
import { McpModule, McpService, mcpExecutionOf } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';
import { everythingStdio } from '../support/everything';

/** A Nest guard of the whole application: the proxied echo tool is for callers with the 'echo' scope only. */
@Injectable()
class EchoNeedsScope implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = mcpExecutionOf(context);
    return mcp?.name !== 'ev_echo' || (mcp.auth?.scopes ?? []).includes('echo');
  }
}

@Injectable()
class Local {
  @Tool()
  local(@Param() a: number): string {
    return `local ${a}`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'nest-gateway', version: '1.0.0', http: false }), McpModule.proxy({ namespace: 'ev', stdio: everythingStdio })],
  providers: [Local, { provide: APP_GUARD, useClass: EchoNeedsScope }],
})
class GatewayModule {}

const text = (result: unknown) => ((result as { content?: { text?: string }[] } | undefined)?.content ?? [])[0]?.text ?? '';

describe('McpModule.proxy() in a Nest application (mcp-reflect/nest)', () => {
  it("serves the remote's components beside the providers' own, through Nest's guards", async () => {
    const app = await NestFactory.createApplicationContext(GatewayModule, { logger: false });
    const application = app.get(McpService).application;
    const allowed = await createTestClient(application, { auth: { subject: 'ada', scopes: ['echo'] } });
    const denied = await createTestClient(application, { auth: { subject: 'bob', scopes: [] } });
    try {
      const names = (await allowed.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(['local', 'ev_echo', 'ev_get-sum']));
      expect(text(await allowed.callTool({ name: 'ev_echo', arguments: { message: 'from nest' } }))).toBe('Echo: from nest');
      expect(text(await allowed.callTool({ name: 'local', arguments: { a: 2 } }))).toBe('local 2');
      expect((await denied.listTools()).tools.map((t) => t.name)).not.toContain('ev_echo');
      expect(text(await denied.callTool({ name: 'ev_get-sum', arguments: { a: 1, b: 2 } }))).toBe('The sum of 1 and 2 is 3.');
    } finally {
      await allowed.close();
      await denied.close();
      await app.close();
    }
  });
});
