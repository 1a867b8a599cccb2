import { IsString } from 'class-validator';
import { Ask, Context, Ctx, Injectable, McpComponents, Param, Prompt, Tool, userMessage } from 'mcp-reflect';

class UserName {
  @IsString() name!: string;
}

/** The `context` field the non-tool scenario answers with. */
class PromptContext {
  @IsString() context!: string;
}

/**
 * Fixtures of the 2026-07-28 revision's scenarios (conformance 0.2.0-alpha.12, tools/conformance-next):
 * streaming elicitation, logging without a log level, list changes made from inside a tool (McpComponents),
 * an argument mirrored into an HTTP header (SEP-2243), and multi-round-trip requests (SEP-2322, one or several
 * input requests per round), each written as a user would, with the public API only.
 */
@Injectable()
export class EverythingNextTools {
  constructor(private readonly components: McpComponents) {}

  @Tool({ description: 'Changes the tool list (toggles test_toggled_tool): listening clients get tools/list_changed' })
  test_trigger_tool_change(): string {
    const { tools } = this.components;
    if (tools.isEnabled('test_toggled_tool')) tools.disable('test_toggled_tool');
    else tools.enable('test_toggled_tool');
    return `test_toggled_tool is ${tools.isEnabled('test_toggled_tool') ? 'enabled' : 'disabled'}`;
  }

  @Tool({ description: 'Changes the prompt list (toggles test_toggled_prompt): listening clients get prompts/list_changed' })
  test_trigger_prompt_change(): string {
    const { prompts } = this.components;
    if (prompts.isEnabled('test_toggled_prompt')) prompts.disable('test_toggled_prompt');
    else prompts.enable('test_toggled_prompt');
    return `test_toggled_prompt is ${prompts.isEnabled('test_toggled_prompt') ? 'enabled' : 'disabled'}`;
  }

  @Tool({ description: 'Toggled by test_trigger_tool_change' })
  test_toggled_tool(): string {
    return 'toggled';
  }

  @Prompt({ description: 'Toggled by test_trigger_prompt_change' })
  test_toggled_prompt() {
    return [userMessage('toggled')];
  }

  @Tool({ description: 'Elicits a name (on 2026-07-28: an input_required result, no request on the stream)' })
  async test_streaming_elicitation(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('What is your name?', UserName);
    return answer.action === 'accept' ? `Hello ${answer.content.name}` : `No name (${answer.action})`;
  }

  @Tool({ description: 'Needs sampling: a client that did not declare it is refused (2026-07-28: -32021)' })
  async test_missing_capability(@Ctx() ctx: Context): Promise<string> {
    const reply = await ctx.sample('Say hello', { maxTokens: 10 });
    return JSON.stringify(reply.content);
  }

  @Tool({ description: 'Echoes a region that HTTP clients also send as the Mcp-Param-Region header (SEP-2243)' })
  test_x_mcp_header(@Param('region', { header: 'Region', description: 'Where to run' }) region: string): string {
    return `region: ${region}`;
  }

  @Tool({ description: 'Logs a line, then succeeds' })
  async test_logging_tool(@Ctx() ctx: Context): Promise<string> {
    await ctx.log.info('test_logging_tool ran');
    return 'logged';
  }

  @Tool({ description: 'input_required: one elicitation, under the key the client answers by' })
  async test_input_required_result_elicitation(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('What is your name?', UserName, { key: 'user_name' });
    return answer.action === 'accept' ? `Hello ${answer.content.name}` : `No name (${answer.action})`;
  }

  @Tool({ description: 'input_required: one sampling request' })
  async test_input_required_result_sampling(@Ctx() ctx: Context): Promise<string> {
    const reply = await ctx.sample('What is the capital of France?', { maxTokens: 50 });
    return `The model said: ${JSON.stringify(reply.content)}`;
  }

  @Tool({ description: 'input_required: the client roots' })
  async test_input_required_result_list_roots(@Ctx() ctx: Context): Promise<string> {
    const roots = await ctx.listRoots();
    return `Roots: ${roots.map((r) => r.uri).join(', ') || '(none)'}`;
  }

  @Tool({ description: 'input_required: the answer comes back with the request state' })
  async test_input_required_result_request_state(@Ctx() ctx: Context): Promise<string> {
    await ctx.elicit('Please confirm', UserName);
    return 'state-ok';
  }

  @Tool({ description: 'input_required: an elicitation, a sampling request and the roots, asked in one round' })
  async test_input_required_result_multiple_inputs(@Ctx() ctx: Context): Promise<string> {
    const { user_name, greeting, client_roots } = await ctx.ask({
      user_name: Ask.elicit('What is your name?', UserName),
      greeting: Ask.sample('Write a one-line greeting', { maxTokens: 50 }),
      client_roots: Ask.roots(),
    });
    const name = user_name.action === 'accept' ? user_name.content.name : `(${user_name.action})`;
    return `name: ${name}; greeting: ${JSON.stringify(greeting.content)}; roots: ${client_roots.map((r) => r.uri).join(', ') || '(none)'}`;
  }

  @Tool({ description: 'input_required: two rounds' })
  async test_input_required_result_multi_round(@Ctx() ctx: Context): Promise<string> {
    const first = await ctx.elicit('Step 1: your name?', UserName);
    const second = await ctx.elicit('Step 2: your name again?', UserName);
    return `multi-round done: ${first.action}, ${second.action}`;
  }

  @Tool({ description: 'input_required: a tampered request state is refused' })
  async test_input_required_result_tampered_state(@Ctx() ctx: Context): Promise<string> {
    await ctx.elicit('What is your name?', UserName);
    return 'done';
  }

  @Tool({ description: 'input_required: asks only what the client declared' })
  async test_input_required_result_capabilities(@Ctx() ctx: Context): Promise<string> {
    if (ctx.client.capabilities.elicitation) await ctx.elicit('What is your name?', UserName);
    const reply = await ctx.sample('Say hi', { maxTokens: 20 });
    return JSON.stringify(reply.content);
  }

  @Prompt({ description: 'input_required from prompts/get' })
  async test_input_required_result_prompt(@Ctx() ctx: Context) {
    const answer = await ctx.elicit('What context should the prompt use?', PromptContext);
    return [userMessage(`Context: ${answer.action === 'accept' ? answer.content.context : '(none)'}`)];
  }
}
