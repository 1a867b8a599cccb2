import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Context, Ctx, Injectable, McpModule, Module, Tool, ToolError, rethrowIfInputRequired } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

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
