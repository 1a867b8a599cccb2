import 'reflect-metadata';
import { Injectable, Param, Prompt, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { testModule } from '../support/bootstrap';

@Injectable()
class BaseTools {
  @Tool()
  ping(): string {
    return 'pong';
  }

  @Prompt()
  hello(): string {
    return 'hello';
  }
}

/** Declared after its parent: its own tools and prompts add to the inherited ones, in a list of its own. */
@Injectable()
class MoreTools extends BaseTools {
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }

  @Prompt()
  bye(): string {
    return 'bye';
  }
}

describe('components of a subclass', () => {
  it("serves the parent's tools and prompts with its own, and leaves the parent's lists as they were", async () => {
    const child = await createTestClient(testModule('child', { providers: [MoreTools] }));
    const parent = await createTestClient(testModule('parent', { providers: [BaseTools] }));
    try {
      expect((await child.listTools()).tools.map((t) => t.name)).toEqual(['ping', 'echo']);
      expect((await child.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello', 'bye']);
      expect((await parent.listTools()).tools.map((t) => t.name)).toEqual(['ping']);
      expect((await parent.listPrompts()).prompts.map((p) => p.name)).toEqual(['hello']);
    } finally {
      await child.close();
      await parent.close();
    }
  });
});
