import 'reflect-metadata';
import { Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { z } from 'zod';

/**
 * What a client's arguments make the server say is bounded: 100,000 wrong items (about 400 KB of JSON) are answered
 * with the first 20 issues and a count, not with an issue per item (megabytes of text), whatever validates them —
 * the schema library of a Standard Schema, or the compiled JSON Schema of a decorated parameter.
 */
@Injectable()
class Totals {
  @Tool({ parameters: z.object({ items: z.array(z.number()) }) })
  zodSum({ items }: { items: number[] }): number {
    return items.reduce((a, b) => a + b, 0);
  }

  @Tool()
  sum(@Param('items', { type: [Number] }) items: number[]): number {
    return items.reduce((a, b) => a + b, 0);
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'totals', version: '1.0.0' })], providers: [Totals] })
class TotalsModule {}

describe('a flood of wrong items is answered with a bounded list of issues', () => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(TotalsModule);
  });
  afterAll(() => client?.close());

  it.each(['zodSum', 'sum'])('%s: the first 20 issues, then how many more', async (name) => {
    const items = Array.from({ length: 100_000 }, () => 'x');
    const result = await client.callTool({ name, arguments: { items } });
    expect(result.isError).toBe(true);
    const text = (result.content as { text: string }[])[0]!.text;
    expect(text).toMatch(new RegExp(`^Invalid arguments for tool ${name}: items`));
    expect(text).toMatch(/; and 99980 more issues$/);
    expect(text.split('; ')).toHaveLength(21);
    expect(text.length).toBeLessThan(4_000);
    // A right call still runs.
    expect((await client.callTool({ name, arguments: { items: [1, 2, 3] } })).content).toEqual([{ type: 'text', text: '6' }]);
  });
});
