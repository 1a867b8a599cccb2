import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import { IsInt, IsOptional, IsString } from 'class-validator';
import { Args, Injectable, McpModule, Module, Param, Tool, type ServerLogger } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

class Profile {
  @IsString() name!: string;
  @IsOptional() @IsInt() age?: number;
}

let received: unknown;

@Injectable()
class EdgeTools {
  @Tool() save(@Args() profile: Profile): string {
    received = profile;
    return 'saved';
  }
  @Tool() echo(@Param() text: string): string {
    return text;
  }
  @Tool() now(): Date {
    return new Date('2026-03-04T05:06:07.000Z');
  }
  @Tool() loop(): unknown {
    const node: Record<string, unknown> = { name: 'a' };
    node.self = node;
    return node;
  }
}

const errors: string[] = [];
const logger: ServerLogger = { error: (message) => errors.push(message), warn: () => {} };

function edgeModule(strictInputValidation: boolean) {
  @Module({
    imports: [McpModule.forRoot({ name: 'edge', version: '1.0.0', strictInputValidation, logger })],
    providers: [EdgeTools],
  })
  class EdgeModule {}
  return EdgeModule;
}

describe('hostile or malformed client input never crashes the server', () => {
  it.each([false, true])('answers every malformed call with a clear result (strict: %s)', async (strict) => {
    const client = await createTestClient(edgeModule(strict));
    try {
      const save = (args: unknown) => client.callTool({ name: 'save', arguments: args as Record<string, unknown> });

      const polluted = await save(JSON.parse('{"name":"eve","__proto__":{"admin":true}}'));
      // Whether the key is dropped on the way (the SDK re-parses arguments) or reaches us, it is never a prototype.
      expect(polluted.isError).toBeUndefined();
      expect(received).toBeInstanceOf(Profile);
      expect(Object.getPrototypeOf(received)).toBe(Profile.prototype);
      expect((received as Record<string, unknown>).admin).toBeUndefined();
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      const unknownKey = await save({ name: 'eve', role: 'admin' });
      if (strict) {
        expect(unknownKey).toMatchObject({
          isError: true,
          content: [{ type: 'text', text: 'Invalid arguments for tool save: role: is not an accepted argument' }],
        });
      } else {
        expect(unknownKey.isError).toBeUndefined();
        expect(received).toEqual(Object.assign(new Profile(), { name: 'eve' }));
      }

      const notObject = await client.callTool({ name: 'echo', arguments: ['x'] as unknown as Record<string, unknown> }).catch((e) => e);
      // The SDK refuses non-object arguments before our handler runs; either way it is an answer, not a crash.
      expect(notObject.code === ProtocolErrorCode.InvalidParams || notObject.isError === true).toBe(true);

      expect(await client.callTool({ name: 'echo', arguments: { text: { deep: [1, 2] } } })).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: 'Invalid arguments for tool echo: text: must be a string' }],
      });

      // The connection still works after all of the above.
      expect((await client.callTool({ name: 'echo', arguments: { text: 'still here' } })).content).toEqual([
        { type: 'text', text: 'still here' },
      ]);
    } finally {
      await client.close();
    }
  });

  it('sends a returned Date as text only and masks a result that cannot be serialised', async () => {
    const client = await createTestClient(edgeModule(false));
    try {
      const now = await client.callTool({ name: 'now', arguments: {} });
      expect(now.content).toEqual([{ type: 'text', text: '"2026-03-04T05:06:07.000Z"' }]);
      expect(now.structuredContent).toBeUndefined();

      const loop = await client.callTool({ name: 'loop', arguments: {} });
      expect(loop).toMatchObject({ isError: true, content: [{ type: 'text', text: "Error calling tool 'loop'" }] });
      expect(errors).toContain("Tool 'loop' (EdgeTools.loop) threw:");
    } finally {
      await client.close();
    }
  });
});
