import 'reflect-metadata';
import { IsBoolean, IsEmail, IsEnum, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { Context, Ctx, Field, Injectable, McpModule, Module, Param, Resource, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

enum Plan {
  Free = 'free',
  Pro = 'pro',
}

class Invitee {
  @IsString() name = 'John Doe';
  @IsEmail() email!: string;
  @IsOptional() @IsInt() @Min(0) @Max(120) age?: number;
  @IsEnum(Plan) @Field({ description: 'Billing plan' }) plan: Plan = Plan.Free;
  @IsBoolean() newsletter = true;
}

class Confirm {
  @IsBoolean() confirm!: boolean;
}

let sideEffects = 0;

@Injectable()
class InteractiveTools {
  @Resource('test://greeting')
  greeting(): string {
    return 'hello from a resource';
  }

  @Tool()
  async invite(@Ctx() ctx: Context): Promise<string> {
    const who = await ctx.elicit('Who should we invite?', Invitee);
    if (who.action !== 'accept') return `no invite (${who.action})`;
    const sure = await ctx.elicit(`Invite ${who.content.email}?`, Confirm);
    if (sure.action !== 'accept' || !sure.content.confirm) return 'cancelled';
    sideEffects++;
    return `${who.content instanceof Invitee} ${who.content.name} <${who.content.email}> ${who.content.plan} ${who.content.newsletter}`;
  }

  @Tool()
  async summarise(@Param() text: string, @Ctx() ctx: Context): Promise<string> {
    const reply = await ctx.sample(`Summarise: ${text}`, { maxTokens: 100 });
    return `LLM response: ${(reply.content as { text: string }).text} (${reply.model})`;
  }

  @Tool()
  async signIn(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicitUrl('Sign in to continue', 'https://auth.example.com/login?state=abc');
    return `sign-in ${answer.action}`;
  }

  @Tool()
  async roots(@Ctx() ctx: Context): Promise<string> {
    return (await ctx.listRoots()).map((r) => r.uri).join(',');
  }

  @Tool()
  async quote(@Ctx() ctx: Context): Promise<string> {
    const [content] = (await ctx.readResource('test://greeting')) as { text: string }[];
    return `${content.text} (${ctx.client.name} on ${ctx.protocolVersion})`;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'interactive', version: '1.0.0' })], providers: [InteractiveTools] })
class InteractiveModule {}

describe.each(['2025-11-25', '2026-07-28'] as const)('elicitation, sampling and roots (%s)', (protocolVersion) => {
  it('elicits a DTO form, twice in one call, and validates the answer into an instance', async () => {
    const client = await createTestClient(InteractiveModule, {
      protocolVersion,
      capabilities: { elicitation: {} },
      clientInfo: { name: 'spec-client', version: '9.9.9' },
    });
    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params);
      const content: Record<string, string | boolean> = request.params.message.startsWith('Who')
        ? { name: 'Ada', email: 'ada@example.com', plan: 'pro', newsletter: false }
        : { confirm: true };
      return { action: 'accept' as const, content };
    });
    try {
      sideEffects = 0;
      const result = await client.callTool({ name: 'invite', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'true Ada <ada@example.com> pro false' }]);
      expect(sideEffects).toBe(1);
      expect(asked[0]).toMatchObject({
        message: 'Who should we invite?',
        requestedSchema: {
          type: 'object',
          properties: {
            name: { type: 'string', default: 'John Doe' },
            email: { type: 'string', format: 'email' },
            age: { type: 'integer', minimum: 0, maximum: 120 },
            plan: { type: 'string', enum: ['free', 'pro'], description: 'Billing plan', default: 'free' },
            newsletter: { type: 'boolean', default: true },
          },
          required: ['name', 'email', 'plan', 'newsletter'],
        },
      });
      expect(asked[1]).toMatchObject({ message: 'Invite ada@example.com?' });

      const quote = await client.callTool({ name: 'quote', arguments: {} });
      expect(quote.content).toEqual([{ type: 'text', text: `hello from a resource (spec-client on ${protocolVersion})` }]);
    } finally {
      await client.close();
    }
  });

  it('reports a declined form and an invalid answer', async () => {
    const client = await createTestClient(InteractiveModule, { protocolVersion, capabilities: { elicitation: {} } });
    let answer: Record<string, unknown> = { action: 'decline' };
    client.setRequestHandler('elicitation/create', async () => answer as never);
    try {
      expect((await client.callTool({ name: 'invite', arguments: {} })).content).toEqual([{ type: 'text', text: 'no invite (decline)' }]);
      answer = { action: 'accept', content: { name: 'Eve', email: 'not-an-email', plan: 'gold', newsletter: true } };
      const invalid = await client.callTool({ name: 'invite', arguments: {} });
      expect(invalid).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: 'The answer to "Who should we invite?" is not valid: email: must be a valid email address; plan: must be one of: "free", "pro"',
          },
        ],
      });
    } finally {
      await client.close();
    }
  });

  it('samples the client model and lists its roots', async () => {
    const client = await createTestClient(InteractiveModule, { protocolVersion, capabilities: { sampling: {}, roots: {} } });
    client.setRequestHandler('sampling/createMessage', async (request) => ({
      role: 'assistant',
      content: { type: 'text', text: `echo(${(request.params.messages[0].content as { text: string }).text}, ${request.params.maxTokens})` },
      model: 'test-model',
    }));
    client.setRequestHandler('roots/list', async () => ({ roots: [{ uri: 'file:///work', name: 'work' }] }));
    try {
      expect((await client.callTool({ name: 'summarise', arguments: { text: 'long text' } })).content).toEqual([
        { type: 'text', text: 'LLM response: echo(Summarise: long text, 100) (test-model)' },
      ]);
      expect((await client.callTool({ name: 'roots', arguments: {} })).content).toEqual([{ type: 'text', text: 'file:///work' }]);
    } finally {
      await client.close();
    }
  });

  it('asks for a URL-mode elicitation when the client supports it', async () => {
    const client = await createTestClient(InteractiveModule, { protocolVersion, capabilities: { elicitation: { form: {}, url: {} } } });
    const asked: { mode?: string; url?: string; message: string }[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params as never);
      return { action: 'accept' as const };
    });
    try {
      expect((await client.callTool({ name: 'signIn', arguments: {} })).content).toEqual([{ type: 'text', text: 'sign-in accept' }]);
      expect(asked[0]).toMatchObject({ mode: 'url', url: 'https://auth.example.com/login?state=abc', message: 'Sign in to continue' });
    } finally {
      await client.close();
    }
  });

  it('refuses clearly when the client lacks the capability', async () => {
    const client = await createTestClient(InteractiveModule, { protocolVersion });
    try {
      const call = client.callTool({ name: 'summarise', arguments: { text: 'x' } });
      if (protocolVersion === '2026-07-28') {
        // The request itself is refused: -32021 naming the capability it needs (HTTP 400 over HTTP).
        await expect(call).rejects.toMatchObject({
          code: -32021,
          message: expect.stringContaining("This tool needs sampling, but the client did not declare the 'sampling' capability."),
        });
        return;
      }
      expect(await call).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: "This tool needs sampling, but the client did not declare the 'sampling' capability. Use a client that supports sampling, or call a tool that does not need it.",
          },
        ],
      });
    } finally {
      await client.close();
    }
  });
});
