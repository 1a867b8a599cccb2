import 'reflect-metadata';
import { Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const today = () => '2026-12-01';

@Injectable()
class Greeter {
  @Tool()
  greet(@Param() name: string, @Param() times: number = 2, @Param() punctuation: string = '!', @Param() loud: boolean = false): string {
    const line = `Hello ${name}${punctuation}`;
    return Array.from({ length: times }, () => (loud ? line.toUpperCase() : line)).join(' ');
  }

  @Tool()
  stamp(@Param() text: string, @Param() day: string = today()): string {
    return `${day}: ${text}`;
  }

  @Tool()
  explicit(@Param({ default: 5 }) count: number = 3): number {
    return count;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'defaults', version: '1.0.0' })], providers: [Greeter] })
class DefaultsModule {}

/** A parameter written with a default is optional, with that default in the schema when it is a literal. */
describe('parameters with default initialisers', () => {
  it('advertises them as optional, with literal defaults', async () => {
    const client = await createTestClient(DefaultsModule);
    try {
      const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      expect(tools.greet).toMatchObject({
        properties: {
          name: { type: 'string' },
          times: { type: 'number', default: 2 },
          punctuation: { type: 'string', default: '!' },
          loud: { type: 'boolean', default: false },
        },
        required: ['name'],
      });
      // An expression cannot be evaluated without running the method: optional, no default advertised.
      expect(tools.stamp).toMatchObject({ properties: { day: { type: 'string' } }, required: ['text'] });
      expect((tools.stamp.properties as Record<string, object>).day).not.toHaveProperty('default');
      // The decorator's own default wins over the initialiser.
      expect(tools.explicit).toMatchObject({ properties: { count: { default: 5 } } });
    } finally {
      await client.close();
    }
  });

  it('lets a caller leave them out', async () => {
    const client = await createTestClient(DefaultsModule);
    try {
      expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada' } })).content).toEqual([{ type: 'text', text: 'Hello Ada! Hello Ada!' }]);
      expect((await client.callTool({ name: 'greet', arguments: { name: 'Ada', times: 1, loud: true } })).content).toEqual([{ type: 'text', text: 'HELLO ADA!' }]);
      expect((await client.callTool({ name: 'stamp', arguments: { text: 'hi' } })).content).toEqual([{ type: 'text', text: '2026-12-01: hi' }]);
      expect((await client.callTool({ name: 'explicit', arguments: {} })).content).toEqual([{ type: 'text', text: '5' }]);
    } finally {
      await client.close();
    }
  });
});
