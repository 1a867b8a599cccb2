import 'reflect-metadata';
import { Injectable, Module, Scope, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Param, Prompt, Resource, ResourceTemplate, Tool, userMessage } from 'mcp-reflect';
import { McpModule, McpService, mcpExecutionOf } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';

/** A Nest guard reading the served name through the MCP context (the tool's name with its namespace). */
class NamedGuard implements CanActivate {
  static seen: string[] = [];
  canActivate(context: ExecutionContext): boolean {
    const mcp = mcpExecutionOf(context)!;
    NamedGuard.seen.push(`${context.getType()}:${mcp.kind}:${mcp.name}:${mcp.phase}`);
    return true;
  }
}

@Injectable()
class Billing {
  @Tool()
  @UseGuards(NamedGuard)
  invoice(@Param() id: string): string {
    return `invoice ${id}`;
  }

  @Resource('billing://rates')
  rates(): string {
    return 'standard';
  }

  @ResourceTemplate('billing://invoices/{id}')
  stored(@Param() id: string): string {
    return `stored ${id}`;
  }

  @Prompt()
  remind(@Param() customer: string) {
    return [userMessage(`Remind ${customer}`)];
  }
}

@Injectable({ scope: Scope.REQUEST })
class PerCall {
  @Tool()
  invoice(@Param() id: string): string {
    return `per call ${id}`;
  }
}

@Module({ imports: [McpModule.forFeature({ namespace: 'billing' })], providers: [Billing] })
class BillingModule {}

@Module({ imports: [McpModule.forFeature({ namespace: 'drafts' })], providers: [PerCall] })
class DraftsModule {}

@Injectable()
class Root {
  @Tool()
  invoice(@Param() id: string): string {
    return `root ${id}`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'nest-ns', version: '1.0.0', http: false }), BillingModule, DraftsModule], providers: [Root] })
class AppModule {}

describe('mcp-reflect/nest: namespaces (McpModule.forFeature)', () => {
  it('serves each feature module under its namespace: one tool name in three modules, three tools', async () => {
    NamedGuard.seen = [];
    const context = await NestFactory.createApplicationContext(AppModule, { logger: false });
    const client = await createTestClient(context.get(McpService).application);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['billing_invoice', 'drafts_invoice', 'invoice']);
      const text = async (name: string) => ((await client.callTool({ name, arguments: { id: '7' } })).content as { text: string }[])[0].text;
      expect(await text('billing_invoice')).toBe('invoice 7');
      expect(await text('drafts_invoice')).toBe('per call 7'); // a request-scoped Nest provider
      expect(await text('invoice')).toBe('root 7');
      expect(NamedGuard.seen).toContain('mcp:tool:billing_invoice:call');
      expect(NamedGuard.seen).toContain('mcp:tool:billing_invoice:list'); // deciding the list

      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['billing://billing/rates']);
      expect((await client.readResource({ uri: 'billing://billing/invoices/9' })).contents[0]).toMatchObject({ text: 'stored 9' });
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['billing_remind']);
    } finally {
      await client.close();
      await context.close();
    }
  });

  it('applies a feature module’s transforms (declared names) and the root’s (served names) to Nest providers', async () => {
    @Injectable({ scope: Scope.REQUEST })
    class Quotes {
      @Tool()
      invoice(@Param() id: string, @Param() currency: string): string {
        return `quote ${id} in ${currency}`;
      }
    }
    @Module({ imports: [McpModule.forFeature({ namespace: 'quotes', transforms: { tools: { invoice: { name: 'quote', args: { id: { name: 'ref' }, currency: { hide: { value: 'EUR' } } } } } } })], providers: [Quotes] })
    class QuotesModule {}
    const options = { name: 'x', version: '1', http: false as const, warnings: { unprovidedComponents: false }, transforms: { tools: { quotes_quote: { description: 'A quote' } } } };
    @Module({ imports: [McpModule.forRoot(options), QuotesModule] })
    class QuotesApp {}
    const context = await NestFactory.createApplicationContext(QuotesApp, { logger: false });
    const client = await createTestClient(context.get(McpService).application);
    try {
      const [tool] = (await client.listTools()).tools;
      expect(tool).toMatchObject({ name: 'quotes_quote', description: 'A quote', inputSchema: { properties: { ref: { type: 'string' } }, required: ['ref'] } });
      expect(((await client.callTool({ name: 'quotes_quote', arguments: { ref: 'Q1' } })).content as { text: string }[])[0].text).toBe('quote Q1 in EUR');
    } finally {
      await client.close();
      await context.close();
    }
  });

  it('fails the bootstrap naming both when a namespaced name meets another', async () => {
    @Injectable()
    class Clash {
      @Tool()
      billing_invoice(): string {
        return 'root';
      }
    }
    const options = { name: 'x', version: '1', http: false as const, warnings: { unprovidedComponents: false } }; // PerCall and Root belong to the application above
    @Module({ imports: [McpModule.forRoot(options), BillingModule], providers: [Clash] })
    class ClashModule {}
    await expect(NestFactory.createApplicationContext(ClashModule, { logger: false, abortOnError: false })).rejects.toThrow(
      /Two components are served as the tool 'billing_invoice': (Billing\.invoice \(namespace 'billing'\)|Clash\.billing_invoice \(no namespace\)) and/,
    );
  });

  it('refuses two namespaces for one Nest module, naming it', async () => {
    @Injectable()
    class Twice {
      @Tool()
      twice(): string {
        return 'twice';
      }
    }
    @Module({ imports: [McpModule.forFeature({ namespace: 'a' }), McpModule.forFeature({ namespace: 'b' })], providers: [Twice] })
    class TwoNamespaces {}
    const options = { name: 'x', version: '1', http: false as const, warnings: { unprovidedComponents: false } };
    @Module({ imports: [McpModule.forRoot(options), TwoNamespaces] })
    class Root2 {}
    await expect(NestFactory.createApplicationContext(Root2, { logger: false, abortOnError: false })).rejects.toThrow(
      /TwoNamespaces: it imports McpModule\.forFeature\(\) 2 times \(namespaces 'a' and 'b'\)[\s\S]*Fix:/,
    );
  });
});
