import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Tool, ToolError, rethrowIfInputRequired } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { JSON_AND_SSE, messagesOf } from '../support/http-helpers';

class City {
  @IsString() name!: string;
}

@Injectable()
class Travel {
  /** The mistake: a catch-all around ctx.elicit(). */
  @Tool()
  async careless(@Ctx() ctx: Context): Promise<string> {
    let city = 'nowhere';
    try {
      const answer = await ctx.elicit('Which city?', City);
      if (answer.action === 'accept') city = answer.content.name;
    } catch {
      city = 'swallowed';
    }
    return `going to ${city}`;
  }

  /** The fix. */
  @Tool()
  async careful(@Ctx() ctx: Context): Promise<string> {
    try {
      const answer = await ctx.elicit('Which city?', City);
      return `going to ${answer.action === 'accept' ? answer.content.name : 'nowhere'}`;
    } catch (error) {
      rethrowIfInputRequired(error);
      throw new ToolError('Could not ask for the city.');
    }
  }
}

const warnings: string[] = [];
@Module({
  imports: [McpModule.forRoot({ name: 'travel', version: '1.0.0', logger: { error() {}, warn: (m) => void warnings.push(m) } })],
  providers: [Travel],
})
class TravelModule {}

describe.each(['2025-11-25', '2026-07-28'] as const)('an input request inside a try/catch (%s)', (protocolVersion) => {
  const connect = async () => {
    const client = await createTestClient(TravelModule, { protocolVersion, capabilities: { elicitation: {} } });
    client.setRequestHandler('elicitation/create', async () => ({ action: 'accept' as const, content: { name: 'Oslo' } }));
    return client;
  };

  it('reaches the client with rethrowIfInputRequired(error) in the catch', async () => {
    const client = await connect();
    warnings.length = 0;
    expect((await client.callTool({ name: 'careful', arguments: {} })).content).toEqual([{ type: 'text', text: 'going to Oslo' }]);
    expect(warnings).toEqual([]);
    await client.close();
  });

  it('is sent even when the catch swallowed it, and the author is warned once, by name', async () => {
    const client = await connect();
    warnings.length = 0;
    expect((await client.callTool({ name: 'careless', arguments: {} })).content).toEqual([{ type: 'text', text: 'going to Oslo' }]);
    expect((await client.callTool({ name: 'careless', arguments: {} })).content).toEqual([{ type: 'text', text: 'going to Oslo' }]);
    expect(warnings.filter((w) => w.includes("The tool 'careless' (Travel.careless) returned after asking the client for input"))).toHaveLength(1);
    expect(warnings[0]).toContain('call rethrowIfInputRequired(error) first in that catch');
    await client.close();
  });
});

@Injectable()
class Named {
  @Tool()
  async ask(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Which city?', City, { key: 'city' });
    return answer.action === 'accept' ? `going to ${answer.content.name}` : 'staying';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'named', version: '1.0.0' })], providers: [Named] })
class NamedModule {}

describe('an input request under a key of its own (2026-07-28)', () => {
  it('is asked under that key, and the answer given under it completes the call', async () => {
    const app = await McpFactory.create(NamedModule);
    await app.listen({ transport: 'http', port: 0 });
    const url = await app.getUrl();
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    };
    const call = async (params: Record<string, unknown>) => {
      const response = await fetch(url, {
        method: 'POST',
        headers: { ...JSON_AND_SSE, 'mcp-method': 'tools/call', 'mcp-name': 'ask', 'mcp-protocol-version': '2026-07-28' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ask', arguments: {}, ...params, _meta: meta } }),
      });
      return messagesOf(await response.text())[0].result as Record<string, any>;
    };
    try {
      const first = await call({});
      expect(first.resultType).toBe('input_required');
      expect(Object.keys(first.inputRequests)).toEqual(['city']);
      const second = await call({ inputResponses: { city: { action: 'accept', content: { name: 'Oslo' } } }, requestState: first.requestState });
      expect(second.content).toEqual([{ type: 'text', text: 'going to Oslo' }]);
    } finally {
      await app.close();
    }
  });
});
