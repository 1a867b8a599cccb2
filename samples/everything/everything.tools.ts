import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsString } from 'class-validator';
import {
  Context,
  Ctx,
  Field,
  Injectable,
  Param,
  Tool,
  ToolError,
  ToolResult,
  audio,
  embeddedResource,
  image,
  text,
} from 'mcp-reflect';
import { TINY_PNG, TINY_WAV } from './media';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class UserInfo {
  @IsString() username!: string;
  @IsString() email!: string;
}

/** SEP-1034: defaults for every primitive type, from property initialisers. */
class ProfileDefaults {
  @IsString() name = 'John Doe';
  @IsInt() age = 30;
  @IsNumber() score = 95.5;
  @IsIn(['active', 'inactive', 'pending']) status = 'active';
  @IsBoolean() verified = true;
}

/** SEP-1330: the five enum shapes of elicitation forms. */
class EnumChoices {
  @IsIn(['option1', 'option2', 'option3']) untitledSingle!: string;

  @IsString()
  @Field({
    schema: {
      oneOf: [
        { const: 'value1', title: 'First Option' },
        { const: 'value2', title: 'Second Option' },
        { const: 'value3', title: 'Third Option' },
      ],
    },
  })
  titledSingle!: string;

  @IsIn(['opt1', 'opt2', 'opt3'])
  @Field({ schema: { enumNames: ['Option One', 'Option Two', 'Option Three'] } })
  legacyEnum!: string;

  @IsIn(['option1', 'option2', 'option3'], { each: true })
  untitledMulti!: string[];

  @IsString({ each: true })
  @Type(() => String)
  @Field({
    schema: {
      items: {
        anyOf: [
          { const: 'value1', title: 'First Choice' },
          { const: 'value2', title: 'Second Choice' },
          { const: 'value3', title: 'Third Choice' },
        ],
      },
    },
  })
  titledMulti!: string[];
}

/** The tools of the MCP conformance suite (server scenarios), written with the library's public API only. */
@Injectable()
export class EverythingTools {
  @Tool({ description: 'Returns a simple text response' })
  test_simple_text(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ description: 'Returns an image' })
  test_image_content() {
    return image(TINY_PNG, 'image/png');
  }

  @Tool({ description: 'Returns an audio clip' })
  test_audio_content() {
    return audio(TINY_WAV, 'audio/wav');
  }

  @Tool({ description: 'Returns an embedded resource' })
  test_embedded_resource() {
    return embeddedResource('test://embedded-resource', 'This is an embedded resource content.', 'text/plain');
  }

  @Tool({ description: 'Returns text, an image and an embedded resource' })
  test_multiple_content_types() {
    return [
      text('Multiple content types test:'),
      image(TINY_PNG, 'image/png'),
      embeddedResource('test://mixed-content-resource', JSON.stringify({ test: 'data', value: 123 }), 'application/json'),
    ];
  }

  @Tool({ description: 'Sends log messages while it runs' })
  async test_tool_with_logging(@Ctx() ctx: Context): Promise<string> {
    await ctx.log.info('Tool execution started');
    await sleep(50);
    await ctx.log.info('Tool processing data');
    await sleep(50);
    await ctx.log.info('Tool execution completed');
    return 'Logging test completed';
  }

  @Tool({ description: 'Always fails, as an isError result' })
  test_error_handling(): never {
    throw new ToolError('This tool intentionally returns an error for testing');
  }

  @Tool({ description: 'Reports progress 0, 50, 100 of 100' })
  async test_tool_with_progress(@Ctx() ctx: Context): Promise<string> {
    await ctx.reportProgress(0, 100);
    await sleep(50);
    await ctx.reportProgress(50, 100);
    await sleep(50);
    await ctx.reportProgress(100, 100);
    return 'Progress test completed';
  }

  @Tool({ description: "Asks the client's model to answer a prompt" })
  async test_sampling(@Param('prompt', { description: 'what to ask the model' }) prompt: string, @Ctx() ctx: Context): Promise<string> {
    const reply = await ctx.sample(prompt, { maxTokens: 100 });
    const content = reply.content as { type: string; text?: string };
    return `LLM response: ${content.text ?? JSON.stringify(content)}`;
  }

  @Tool({ description: 'Asks the user for a username and an email' })
  async test_elicitation(@Param('message', { description: 'the question' }) message: string, @Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit(message, UserInfo);
    return `User response: ${JSON.stringify(answer)}`;
  }

  @Tool({ description: 'Elicits a form whose fields have defaults (SEP-1034)' })
  async test_elicitation_sep1034_defaults(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Please review and update the form fields with defaults', ProfileDefaults);
    return `Elicitation completed: ${JSON.stringify(answer)}`;
  }

  @Tool({ description: 'Elicits every enum shape (SEP-1330)' })
  async test_elicitation_sep1330_enums(@Ctx() ctx: Context): Promise<string> {
    const answer = await ctx.elicit('Please select options from the enum fields', EnumChoices);
    return `Elicitation completed: ${JSON.stringify(answer)}`;
  }

  @Tool({
    description: 'A tool whose input schema uses JSON Schema 2020-12 keywords',
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
      // Composition, conditionals and an anchor (SEP-2106): they must reach the client as written.
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

  @Tool({ description: 'Closes its SSE stream mid-call, so the client must reconnect (resumability)' })
  async test_reconnection(): Promise<string> {
    await sleep(100);
    return 'Reconnection test completed';
  }
}
