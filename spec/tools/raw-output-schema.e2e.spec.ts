import 'reflect-metadata';
import { BootstrapError, Injectable, McpFactory, McpModule, Module, Tool, ToolResult } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { buildApplication } from '../../lib/host/mcp-factory';

const WEATHER = {
  type: 'object',
  properties: { city: { type: 'string' }, celsius: { type: 'number' } },
  required: ['city', 'celsius'],
} as const;

@Injectable()
class Raw {
  @Tool({ outputSchema: WEATHER })
  weather(): ToolResult {
    return new ToolResult({ content: [{ type: 'text', text: 'Lyon 21' }], structuredContent: { city: 'Lyon', celsius: 21 } });
  }

  @Tool({ outputSchema: WEATHER })
  wrong(): object {
    return { city: 'Lyon', celsius: 'warm' };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'raw', version: '1.0.0' })], providers: [Raw] })
class RawModule {}

describe('@Tool({ outputSchema }): a JSON Schema for the output, used verbatim', () => {
  it('is advertised, and what the tool returns is checked against it', async () => {
    const client = await createTestClient(RawModule);
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.find((t) => t.name === 'weather')!.outputSchema).toEqual(WEATHER);
      expect((await client.callTool({ name: 'weather', arguments: {} })).structuredContent).toEqual({ city: 'Lyon', celsius: 21 });
      const wrong = await client.callTool({ name: 'wrong', arguments: {} });
      expect(wrong).toMatchObject({ isError: true });
      expect(JSON.stringify(wrong.content)).toMatch(/does not match its output schema/);
    } finally {
      await client.close();
    }
  });

  it('is compiled on the first result, but an invalid one still fails the bootstrap', async () => {
    @Injectable()
    class Invalid {
      @Tool({ outputSchema: { type: 'object', properties: { city: { type: 'town' } } } })
      invalid(): object {
        return { city: 'Lyon' };
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'invalid', version: '1.0.0' })], providers: [Invalid] })
    class InvalidModule {}
    const error = await McpFactory.create(InvalidModule).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'INVALID_SCHEMA' });
    expect((error as Error).message).toMatch(/^Cannot build tool 'invalid' \(Invalid\.invalid\): its output schema is not a valid JSON Schema: schema is invalid: .*type/);
  });

  it('is compiled at bootstrap while the validators command records what an application compiles', async () => {
    const recorded: { use: string; schema: unknown }[] = [];
    const { app } = await buildApplication(RawModule, { recordValidators: (use) => void recorded.push({ use: use.use, schema: use.schema }) });
    await app.close();
    expect(recorded).toContainEqual({ use: 'output', schema: WEATHER });
  });

  it('refuses output and outputSchema together, naming the tool and the fix', async () => {
    @Injectable()
    class Both {
      @Tool({ output: String, outputSchema: WEATHER })
      both(): string {
        return 'x';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'both', version: '1.0.0' })], providers: [Both] })
    class BothModule {}
    const error = await McpFactory.create(BothModule).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BootstrapError);
    expect((error as Error).message).toMatch(/Cannot build tool 'both' \(Both\.both\): @Tool\(\) gives both output and outputSchema[\s\S]*Fix: keep one/);
  });
});
