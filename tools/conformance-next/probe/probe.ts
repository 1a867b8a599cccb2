import 'reflect-metadata';
import { IsString } from 'class-validator';
import { Context, Ctx, Injectable, McpApplication, McpFactory, McpModule, Module, Param, Prompt, Tool, ToolResult, text } from 'mcp-reflect';

/**
 * SURVEY PROBE (not a sample, not part of CI): the alpha.12 draft fixtures that samples/everything lacks,
 * written naively with the public API, so `node tools/conformance-next/run.js --probe` can tell a missing
 * fixture (passes here) from a library gap (still fails here). See SURVEY.md.
 */
let app: McpApplication;

class UserName {
  @IsString() name!: string;
}

@Injectable()
class ProbeTools {
  @Tool({ description: 'Returns a simple text response' })
  test_simple_text(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ description: 'Needs sampling (the harness calls it with clientCapabilities {})' })
  async test_missing_capability(@Ctx() ctx: Context): Promise<string> {
    const reply = await ctx.sample('hello', { maxTokens: 10 });
    return JSON.stringify(reply.content);
  }

  @Tool({ description: 'Elicits (on 2026-07-28 this must become input_required, not a server request)' })
  async test_streaming_elicitation(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Your name?', UserName);
    return `got ${JSON.stringify(answer)}`;
  }

  @Tool({ description: 'Logs, then succeeds' })
  async test_logging_tool(@Ctx() ctx: Context): Promise<string> {
    await ctx.log.info('a log line the client did not ask for');
    return 'logged';
  }

  @Tool({ description: 'Mutates the tool list' })
  test_trigger_tool_change(): string {
    if (app.tools.isEnabled('test_toggled_tool')) app.tools.disable('test_toggled_tool');
    else app.tools.enable('test_toggled_tool');
    return 'tool list changed';
  }

  @Tool({ description: 'Mutates the prompt list' })
  test_trigger_prompt_change(): string {
    if (app.prompts.isEnabled('test_toggled_prompt')) app.prompts.disable('test_toggled_prompt');
    else app.prompts.enable('test_toggled_prompt');
    return 'prompt list changed';
  }

  @Tool({ description: 'Toggled by test_trigger_tool_change' })
  test_toggled_tool(): string {
    return 'toggled';
  }

  @Tool({
    description: 'A tool whose input schema uses JSON Schema 2020-12 keywords (the full alpha.12 fixture)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: { $anchor: 'addressDef', type: 'object', properties: { street: { type: 'string' }, city: { type: 'string' } } },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
        contactMethod: { type: 'string', enum: ['phone', 'email'] },
        phone: { type: 'string' },
        email: { type: 'string' },
      },
      allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
      if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    },
  })
  json_schema_2020_12_tool(@Param('name') name: string | undefined): ToolResult {
    return new ToolResult({ content: [text(`JSON Schema 2020-12 tool called${name ? ` by ${name}` : ''}`)] });
  }

  @Tool({ description: 'A parameter mirrored into the Mcp-Param-Region header (SEP-2243), declared through @Param schema' })
  test_x_mcp_header(@Param('region', { schema: { 'x-mcp-header': 'Region' } }) region: string): string {
    return `region=${region}`;
  }

  // SEP-2322 fixtures, written with the library's Context (keys are the library's own: elicit-0, sample-0 …).
  @Tool({ description: 'input_required: elicitation' })
  async test_input_required_result_elicitation(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('What is your name?', UserName);
    return `Hello ${JSON.stringify(answer)}`;
  }

  @Tool({ description: 'input_required: sampling' })
  async test_input_required_result_sampling(@Ctx() ctx: Context): Promise<string> {
    const reply = await ctx.sample('What is the capital of France?', { maxTokens: 50 });
    return `LLM: ${JSON.stringify(reply.content)}`;
  }

  @Tool({ description: 'input_required: roots' })
  async test_input_required_result_list_roots(@Ctx() ctx: Context): Promise<string> {
    const roots = await ctx.listRoots();
    return `roots: ${JSON.stringify(roots)}`;
  }

  @Tool({ description: 'input_required: request state' })
  async test_input_required_result_request_state(@Ctx() ctx: Context): Promise<string> {
    await ctx.elicit('Confirm?', UserName);
    return 'state-ok';
  }

  @Tool({ description: 'input_required: several inputs' })
  async test_input_required_result_multiple_inputs(@Ctx() ctx: Context): Promise<string> {
    const a = await ctx.elicit('Name?', UserName);
    const b = await ctx.sample('Greeting?', { maxTokens: 20 });
    const c = await ctx.listRoots();
    return JSON.stringify({ a, b: b.content, c });
  }

  @Tool({ description: 'input_required: two rounds' })
  async test_input_required_result_multi_round(@Ctx() ctx: Context): Promise<string> {
    await ctx.elicit('Step 1?', UserName);
    await ctx.elicit('Step 2?', UserName);
    return 'multi-round done';
  }

  @Tool({ description: 'input_required: tampered state' })
  async test_input_required_result_tampered_state(@Ctx() ctx: Context): Promise<string> {
    await ctx.elicit('Name?', UserName);
    return 'done';
  }

  @Tool({ description: 'input_required: only what the client declared' })
  async test_input_required_result_capabilities(@Ctx() ctx: Context): Promise<string> {
    if (ctx.client.capabilities.elicitation) await ctx.elicit('Name?', UserName);
    const reply = await ctx.sample('Hi?', { maxTokens: 20 });
    return JSON.stringify(reply.content);
  }
}

@Injectable()
class ProbePrompts {
  @Prompt({ description: 'A simple prompt' })
  test_simple_prompt(): string {
    return 'simple';
  }

  @Prompt({ description: 'Toggled by test_trigger_prompt_change' })
  test_toggled_prompt(): string {
    return 'toggled';
  }

  @Prompt({ description: 'input_required from prompts/get' })
  async test_input_required_result_prompt(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Context?', UserName);
    return `context: ${JSON.stringify(answer)}`;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'mcp-reflect-probe', version: '0.0.0' })],
  providers: [ProbeTools, ProbePrompts],
})
class ProbeModule {}

async function main(): Promise<void> {
  app = await McpFactory.create(ProbeModule);
  await app.listen({ transport: 'http', host: '127.0.0.1', port: 0 });
  process.stdout.write(`MCP_URL=${await app.getUrl()}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
