import 'reflect-metadata';
import { Injectable, McpModule, Module, Param, Tool, ToolError } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';

/**
 * Tools of singleton classes without a Context are called on a synchronous path when their arguments are
 * valid as sent; everything else takes the general one. Both must answer alike.
 */
@Injectable()
class Paths {
  @Tool()
  double(@Param() n: number): number {
    return n * 2;
  }

  @Tool()
  async later(@Param() n: number): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 1));
    return `later ${n}`;
  }

  @Tool()
  thenable(@Param() n: number): PromiseLike<string> {
    // Not a native Promise: anything with then() is awaited.
    return { then: (resolve: (value: string) => unknown) => resolve(`thenable ${n}`) } as PromiseLike<string>;
  }

  @Tool()
  refuse(@Param() n: number): string {
    throw new ToolError(`refused ${n}`);
  }

  @Tool()
  async refuseLater(@Param() n: number): Promise<string> {
    throw new ToolError(`refused later ${n}`);
  }

  @Tool()
  crash(@Param() n: number): string {
    throw new Error(`secret ${n}`);
  }

  @Tool({ output: Number })
  broken(@Param() n: number): number {
    return `not a number ${n}` as unknown as number;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'paths', version: '1.0.0', logger: { error() {}, warn() {} } })], providers: [Paths] })
class PathsModule {}

describe('tool call paths', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(PathsModule);
  });
  afterAll(() => client.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { text: (result.content as { text: string }[])[0]?.text, isError: result.isError ?? false };
  };

  it.each([
    ['double', { n: 4 }, '8', false],
    ['double', { n: '4' }, '8', false], // coerced: the general path
    ['double', { n: 'four' }, 'Invalid arguments for tool double: n: must be a number', true],
    ['later', { n: 1 }, 'later 1', false],
    ['thenable', { n: 2 }, 'thenable 2', false],
    ['refuse', { n: 3 }, 'refused 3', true],
    ['refuseLater', { n: 3 }, 'refused later 3', true],
    ['crash', { n: 5 }, "Error calling tool 'crash'", true],
  ])('%s(%j) answers %j', async (name, args, text, isError) => {
    expect(await call(name as string, args as Record<string, unknown>)).toEqual({ text, isError });
  });

  it('reports a result that breaks the output schema', async () => {
    const result = await call('broken', { n: 1 });
    expect(result.isError).toBe(true);
    expect(result.text).toMatch(/^Tool 'broken' returned output that does not match its output schema: result: must be a number/);
  });
});
