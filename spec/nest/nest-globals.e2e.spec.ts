import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { type CallHandler, type CanActivate, type ExecutionContext, Injectable, Module, type NestInterceptor } from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, NestFactory } from '@nestjs/core';
import { map } from 'rxjs';
import { Param, Tool } from 'mcp-reflect';
import { McpModule, McpService } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';

/** Global enhancers (APP_* providers and app.useGlobal*()) apply to MCP calls; options can come from providers. */
@Injectable()
class Settings {
  readonly name = 'from-settings';
}

@Module({ providers: [Settings], exports: [Settings] })
class SettingsModule {}

@Injectable()
class BlockGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.getType<string>() !== 'mcp' || context.getHandler().name !== 'blocked';
  }
}

@Injectable()
class BangInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value) => `${String(value)}!`));
  }
}

class TagInterceptor implements NestInterceptor {
  intercept(_context: ExecutionContext, next: CallHandler) {
    return next.handle().pipe(map((value) => `<${String(value)}>`));
  }
}

@Injectable()
class EchoTools {
  @Tool()
  echo(@Param('text') text: string): string {
    return text;
  }

  @Tool()
  blocked(): string {
    return 'should not run';
  }
}

function appModule(http: Record<string, unknown> | false) {
  @Module({
    imports: [
      McpModule.forRootAsync({
        imports: [SettingsModule],
        inject: [Settings],
        useFactory: (settings: Settings) => ({ name: settings.name, version: '2.0.0' }),
        http: http as never,
      }),
    ],
    providers: [EchoTools, { provide: APP_GUARD, useClass: BlockGuard }, { provide: APP_INTERCEPTOR, useClass: BangInterceptor }],
  })
  class AppModule {}
  return AppModule;
}

const text = (result: unknown) => ((result as { content?: { text: string }[] }).content ?? [])[0]?.text;

describe('global Nest enhancers and forRootAsync', () => {
  it('takes the options from a factory and runs APP_GUARD and APP_INTERCEPTOR on MCP calls', async () => {
    const context = await NestFactory.createApplicationContext(appModule(false), { logger: false });
    const client = await createTestClient(context.get(McpService).application);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'from-settings', version: '2.0.0' });
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['echo']);
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi!');
    } finally {
      await client.close();
      await context.close();
    }
  });

  it('runs app.useGlobalInterceptors() too, and serves stateless HTTP', async () => {
    const app = await NestFactory.create(appModule({ stateless: true }), { logger: false, forceCloseConnections: true });
    app.useGlobalInterceptors(new TagInterceptor());
    await app.listen(0, '127.0.0.1');
    const base = (await app.getUrl()).replace('[::1]', '127.0.0.1').replace('localhost', '127.0.0.1');
    const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`));
    const client = new Client({ name: 'globals', version: '1.0.0' });
    try {
      await client.connect(transport);
      expect(transport.sessionId).toBeUndefined();
      // In the order Nest's own context creator lists global interceptors: the APP_INTERCEPTOR provider outermost here.
      expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('<hi>!');
    } finally {
      await client.close();
      await app.close();
    }
  });
});
