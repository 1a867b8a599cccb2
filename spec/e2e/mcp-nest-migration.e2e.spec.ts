import 'reflect-metadata';
import { IsArray, IsInt, IsString } from 'class-validator';
import { Context, Ctx, Injectable, McpModule, Module, Param, Prompt, ResourceTemplate, Tool, text, userMessage, type ServerLogger } from 'mcp-reflect';
import * as z from 'zod';
import { createTestClient } from 'mcp-reflect/testing';

/** What a tool written for @rekog/mcp-nest 2.x (or for the SDK's McpServer) returns and calls, unchanged. */

class Point {
  @IsInt() x!: number;
  @IsInt() y!: number;
}

class Page {
  @IsArray() @IsString({ each: true }) content!: string[];
}

class Article {
  content!: { type: string; text: string }[];
}

@Injectable()
class MigratedTools {
  @Tool() plain() {
    return { content: [{ type: 'text', text: 'hello from mcp-nest' }] };
  }
  @Tool() failing() {
    return { content: [{ type: 'text', text: 'Quota exceeded, retry after 60 s' }], isError: true };
  }
  @Tool() structured() {
    return {
      content: [{ type: 'text', text: '3 rows' }, { type: 'resource_link', uri: 'test://rows.csv', name: 'rows.csv' }],
      structuredContent: { rows: 3 },
      _meta: { 'x/trace': 'abc' },
    };
  }
  @Tool() helperBlocks() {
    return { content: [text('made by a helper')] };
  }
  @Tool({ output: Point }) typedResult() {
    return { content: [{ type: 'text', text: '(1, 2)' }], structuredContent: { x: 1, y: 2 } };
  }
  @Tool({ output: Point }) typedResultWrong() {
    return { content: [{ type: 'text', text: '(1, ?)' }], structuredContent: { x: 1, y: 'two' } };
  }
  @Tool() malformed() {
    return { content: [{ type: 'text', body: 'no text field' }] };
  }

  // Data that merely has a `content` field stays data.
  @Tool() withMoreKeys() {
    return { content: [{ type: 'text', text: 'a' }], title: 'not a result' };
  }
  @Tool() otherBlockTypes() {
    return { content: [{ type: 'paragraph', text: 'a' }] };
  }
  @Tool() instance(): Article {
    return Object.assign(new Article(), { content: [{ type: 'text', text: 'an instance' }] });
  }
  @Tool({ output: Page }) emptyPage(): Page {
    return { content: [] };
  }

  @Tool() async progress(@Param() steps: number, @Ctx() ctx: Context): Promise<string> {
    for (let i = 1; i <= steps; i++) await ctx.reportProgress({ progress: i, total: steps, message: `step ${i}` });
    await ctx.reportProgress({ progress: steps }); // not above the last value sent: dropped
    await ctx.reportProgress({ progress: steps + 1 });
    return 'done';
  }
}

function migratedModule(logger: ServerLogger) {
  @Module({ imports: [McpModule.forRoot({ name: 'migrated', version: '1.0.0', logger })], providers: [MigratedTools] })
  class MigratedModule {}
  return MigratedModule;
}

function capturingLogger() {
  const errors: string[] = [];
  const logger: ServerLogger = { error: (message) => void errors.push(message), warn: () => {} };
  return { errors, logger };
}

describe('coming from @rekog/mcp-nest 2.x (through an SDK client)', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('passes a returned CallToolResult through as the result, never wrapped again (%s)', async (protocolVersion) => {
    const { errors, logger } = capturingLogger();
    const client = await createTestClient(migratedModule(logger), { protocolVersion });
    try {
      const call = (name: string) => client.callTool({ name, arguments: {} });
      const without = ({ _meta, ...result }: Record<string, unknown>) => result; // the SDK may add its own _meta keys

      expect(without(await call('plain'))).toEqual({ content: [{ type: 'text', text: 'hello from mcp-nest' }] });
      expect(without(await call('failing'))).toEqual({ content: [{ type: 'text', text: 'Quota exceeded, retry after 60 s' }], isError: true });
      const structured = await call('structured');
      expect(without(structured)).toEqual({
        content: [
          { type: 'text', text: '3 rows' },
          { type: 'resource_link', uri: 'test://rows.csv', name: 'rows.csv' },
        ],
        structuredContent: { rows: 3 },
      });
      expect(structured._meta).toMatchObject({ 'x/trace': 'abc' });
      expect(without(await call('helperBlocks'))).toEqual({ content: [{ type: 'text', text: 'made by a helper' }] });

      // With an output schema, its structuredContent is validated as the SDK's McpServer does.
      expect(without(await call('typedResult'))).toEqual({ content: [{ type: 'text', text: '(1, 2)' }], structuredContent: { x: 1, y: 2 } });
      expect(without(await call('typedResultWrong'))).toEqual({
        content: [{ type: 'text', text: "Tool 'typedResultWrong' returned output that does not match its output schema: y: must be an integer" }],
        isError: true,
      });

      // A result whose blocks are not valid is refused with the reason, not sent as JSON text.
      expect(without(await call('malformed'))).toEqual({
        content: [{ type: 'text', text: "Tool 'malformed' returned a CallToolResult that is not valid: content[0]: a text block needs a string text" }],
        isError: true,
      });
      expect(errors).toEqual([
        "Tool 'typedResultWrong' (MigratedTools.typedResultWrong) returned output that does not match its output schema: y: must be an integer",
        "Tool 'malformed' (MigratedTools.malformed) returned a CallToolResult that is not valid: content[0]: a text block needs a string text",
      ]);
    } finally {
      await client.close();
    }
  });

  it('still converts data that has a content field: other keys, other block types, a class instance, a DTO with an output schema', async () => {
    const client = await createTestClient(migratedModule(capturingLogger().logger));
    try {
      const call = (name: string) => client.callTool({ name, arguments: {} });
      const moreKeys = { content: [{ type: 'text', text: 'a' }], title: 'not a result' };
      expect(await call('withMoreKeys')).toMatchObject({ content: [{ type: 'text', text: JSON.stringify(moreKeys) }], structuredContent: moreKeys });
      const paragraphs = { content: [{ type: 'paragraph', text: 'a' }] };
      expect(await call('otherBlockTypes')).toMatchObject({ content: [{ type: 'text', text: JSON.stringify(paragraphs) }], structuredContent: paragraphs });
      const article = { content: [{ type: 'text', text: 'an instance' }] };
      expect(await call('instance')).toMatchObject({ content: [{ type: 'text', text: JSON.stringify(article) }], structuredContent: article });
      const page = await call('emptyPage');
      expect(page.isError).toBeUndefined();
      expect(page).toMatchObject({ content: [{ type: 'text', text: '{"content":[]}' }], structuredContent: { content: [] } });
    } finally {
      await client.close();
    }
  });

  it.each(['2025-11-25', '2026-07-28'] as const)('sends progress given as { progress, total, message } (%s)', async (protocolVersion) => {
    const client = await createTestClient(migratedModule(capturingLogger().logger), { protocolVersion });
    try {
      const progress: unknown[] = [];
      const result = await client.callTool({ name: 'progress', arguments: { steps: 2 } }, { onprogress: (p) => void progress.push(p) });
      expect(result.content).toEqual([{ type: 'text', text: 'done' }]);
      expect(progress).toEqual([
        { progress: 1, total: 2, message: 'step 1' },
        { progress: 2, total: 2, message: 'step 2' },
        { progress: 3 },
      ]);
    } finally {
      await client.close();
    }
  });
});

/** docs/nestjs.md's before/after (issue 42): an mcp-nest tool, template and prompt keep their zod schemas. */
describe('a @rekog/mcp-nest application keeps its zod schemas', () => {
  @Injectable()
  class GreetingTools {
    @Tool({ name: 'greet', description: 'Greets a user', parameters: z.object({ name: z.string().default('World') }) })
    greet({ name }: { name: string }, @Ctx() ctx: Context) {
      return { content: [{ type: 'text' as const, text: `Hello, ${name}!${ctx ? '' : '?'}` }] };
    }

    @ResourceTemplate('users://{id}', { name: 'user', mimeType: 'application/json' })
    user(@Param('id', { schema: z.string().regex(/^\d+$/) }) id: string) {
      return { id };
    }

    @Prompt({ name: 'review', description: 'Review code' })
    review(@Param('code', { schema: z.string().min(1) }) code: string) {
      return [userMessage(`Review:\n${code}`)];
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'migrated-zod', version: '1.0.0', logger: { error() {}, warn() {} } })], providers: [GreetingTools] })
  class GreetingModule {}

  it("advertises and applies zod's default, and validates the template's and the prompt's arguments with zod", async () => {
    const client = await createTestClient(GreetingModule);
    try {
      const { tools } = await client.listTools();
      expect(tools[0].inputSchema).toEqual({ type: 'object', properties: { name: { type: 'string', default: 'World' } } });
      expect((await client.callTool({ name: 'greet', arguments: {} })).content).toEqual([{ type: 'text', text: 'Hello, World!' }]);
      expect((await client.readResource({ uri: 'users://7' })).contents[0]).toMatchObject({ text: '{"id":"7"}' });
      await expect(client.readResource({ uri: 'users://seven' })).rejects.toThrow();
      expect((await client.getPrompt({ name: 'review', arguments: { code: 'x = 1' } })).messages[0].content).toEqual({ type: 'text', text: 'Review:\nx = 1' });
      await expect(client.getPrompt({ name: 'review', arguments: { code: '' } })).rejects.toThrow('code: must be at least 1 character');
    } finally {
      await client.close();
    }
  });
});
