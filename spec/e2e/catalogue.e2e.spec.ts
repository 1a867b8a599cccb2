import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  Complete,
  Injectable,
  McpFactory,
  McpModule,
  McpReflectError,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceList,
  ResourceTemplate,
  Tool,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { Arrivals, roundTrip } from '../support/waiting';

type Era = '2025-11-25' | '2026-07-28';
type ListKind = 'tools' | 'prompts' | 'resources';

/**
 * Counts the `list_changed` notifications the client receives. On 2026-07-28 they only travel on a
 * `subscriptions/listen` stream (there are no unsolicited notifications in that era), so the watcher opens one.
 * `settle(total)` waits until `total` of them (all kinds together) have arrived, then for a round trip, so a
 * stray extra one would have arrived too and shows in the counts.
 */
async function watchLists(
  client: TestClient,
  era: Era,
): Promise<{ counts: Record<ListKind, number>; settle: (total: number) => Promise<void>; stop: () => Promise<void> }> {
  const counts: Record<ListKind, number> = { tools: 0, prompts: 0, resources: 0 };
  const arrivals = new Arrivals<ListKind>();
  const count = (kind: ListKind) => () => {
    counts[kind]++;
    arrivals.push(kind);
  };
  client.setNotificationHandler('notifications/tools/list_changed', count('tools'));
  client.setNotificationHandler('notifications/prompts/list_changed', count('prompts'));
  client.setNotificationHandler('notifications/resources/list_changed', count('resources'));
  const settle = async (total: number) => {
    await arrivals.until(total);
    await roundTrip(client);
  };
  if (era === '2025-11-25') return { counts, settle, stop: async () => undefined };
  const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  expect(subscription.honoredFilter).toEqual({ toolsListChanged: true, promptsListChanged: true, resourcesListChanged: true });
  return { counts, settle, stop: () => subscription.close() };
}

@Injectable()
class CoreComponents {
  @Tool()
  alpha(): string {
    return 'alpha';
  }

  @Tool()
  beta(): string {
    return 'beta';
  }

  @Prompt()
  greet(@Param('who') who: string): string {
    return `Hello ${who}`;
  }

  @Prompt()
  farewell(): string {
    return 'Bye';
  }

  @Resource('config://app')
  config(): string {
    return 'config';
  }

  @ResourceTemplate('users://{id}')
  user(@Param('id') id: string): string {
    return `user ${id}`;
  }
}

/** Not a provider: added at runtime with `app.tools.add(new ExtraTools())`. */
class ExtraTools {
  @Tool()
  gamma(): string {
    return 'gamma';
  }
}

class ExtraPrompts {
  @Prompt()
  later(): string {
    return 'added later';
  }
}

class ExtraResources {
  @Resource('extra://doc')
  extraDoc(): string {
    return 'extra doc';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'catalogue', version: '1.0.0' })], providers: [CoreComponents] })
class CatalogueModule {}

const names = (items: readonly { name: string }[]) => items.map((i) => i.name);

describe.each(['2025-11-25', '2026-07-28'] as const)('runtime catalogue changes (%s)', (era) => {
  it('disables, enables, removes and adds tools, with one tools/list_changed per change', async () => {
    const client = await createTestClient(CatalogueModule, { protocolVersion: era });
    const { counts, settle, stop } = await watchLists(client, era);
    try {
      const { app } = client;
      expect(names((await client.listTools()).tools)).toEqual(['alpha', 'beta']);

      app.tools.disable('alpha');
      await settle(1);
      expect(counts.tools).toBe(1);
      expect(app.tools.isEnabled('alpha')).toBe(false);
      expect(app.tools.names()).toEqual(['alpha', 'beta']);
      expect(names((await client.listTools()).tools)).toEqual(['beta']);
      await expect(client.callTool({ name: 'alpha', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Unknown tool: alpha',
      });

      app.tools.disable('alpha'); // already disabled: no change, no notification (none before a round trip)
      await settle(1);
      expect(counts.tools).toBe(1);

      app.tools.enable('alpha');
      await settle(2);
      expect(counts.tools).toBe(2);
      expect((await client.callTool({ name: 'alpha', arguments: {} })).content).toEqual([{ type: 'text', text: 'alpha' }]);
      expect(names((await client.listTools()).tools)).toEqual(['alpha', 'beta']);

      app.tools.remove('beta');
      await settle(3);
      expect(counts.tools).toBe(3);
      expect(app.tools.names()).toEqual(['alpha']);
      expect(names((await client.listTools()).tools)).toEqual(['alpha']);
      await expect(client.callTool({ name: 'beta', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Unknown tool: beta',
      });

      app.tools.add(new ExtraTools());
      await settle(4);
      expect(counts.tools).toBe(4);
      expect(names((await client.listTools()).tools)).toEqual(['alpha', 'gamma']);
      expect((await client.callTool({ name: 'gamma', arguments: {} })).content).toEqual([{ type: 'text', text: 'gamma' }]);

      // Tool changes say nothing about prompts or resources.
      expect(counts.prompts).toBe(0);
      expect(counts.resources).toBe(0);
    } finally {
      await stop();
      await client.close();
    }
  });

  it('disables, enables, removes and adds prompts, with one prompts/list_changed per change', async () => {
    const client = await createTestClient(CatalogueModule, { protocolVersion: era });
    const { counts, settle, stop } = await watchLists(client, era);
    try {
      const { app } = client;
      expect(names((await client.listPrompts()).prompts)).toEqual(['greet', 'farewell']);

      app.prompts.disable('greet');
      await settle(1);
      expect(counts.prompts).toBe(1);
      expect(names((await client.listPrompts()).prompts)).toEqual(['farewell']);
      await expect(client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringMatching(/^Unknown prompt: greet\. Available prompts: /),
      });

      app.prompts.enable('greet');
      await settle(2);
      expect(counts.prompts).toBe(2);
      expect((await client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'Hello Ada' } },
      ]);

      app.prompts.remove('farewell');
      await settle(3);
      expect(counts.prompts).toBe(3);
      expect(app.prompts.names()).toEqual(['greet']);
      await expect(client.getPrompt({ name: 'farewell' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Unknown prompt: farewell. Available prompts: greet',
      });

      app.prompts.add(new ExtraPrompts());
      await settle(4);
      expect(counts.prompts).toBe(4);
      expect(names((await client.listPrompts()).prompts)).toEqual(['greet', 'later']);
      expect((await client.getPrompt({ name: 'later' })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'added later' } },
      ]);
      expect(counts.tools).toBe(0);
      expect(counts.resources).toBe(0);
    } finally {
      await stop();
      await client.close();
    }
  });

  it('disables, enables, removes and adds resources and templates, with one resources/list_changed per change', async () => {
    const client = await createTestClient(CatalogueModule, { protocolVersion: era });
    const { counts, settle, stop } = await watchLists(client, era);
    try {
      const { app } = client;
      expect(app.resources.names()).toEqual(['config', 'user']);

      app.resources.disable('config');
      await settle(1);
      expect(counts.resources).toBe(1);
      expect((await client.listResources()).resources).toEqual([]);
      await expect(client.readResource({ uri: 'config://app' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('Resource not found: config://app'),
        data: { uri: 'config://app' },
      });

      app.resources.disable('user');
      await settle(2);
      expect(counts.resources).toBe(2);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      await expect(client.readResource({ uri: 'users://7' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        data: { uri: 'users://7' },
      });

      app.resources.enable('config');
      app.resources.enable('user');
      await settle(4);
      expect(counts.resources).toBe(4);
      expect((await client.readResource({ uri: 'users://7' })).contents).toEqual([{ uri: 'users://7', mimeType: 'text/plain', text: 'user 7' }]);

      app.resources.add(new ExtraResources());
      await settle(5);
      expect(counts.resources).toBe(5);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['config://app', 'extra://doc']);
      expect((await client.readResource({ uri: 'extra://doc' })).contents).toEqual([
        { uri: 'extra://doc', mimeType: 'text/plain', text: 'extra doc' },
      ]);

      app.resources.remove('extraDoc');
      await settle(6);
      expect(counts.resources).toBe(6);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['config://app']);
      await expect(client.readResource({ uri: 'extra://doc' })).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
      expect(counts.tools).toBe(0);
      expect(counts.prompts).toBe(0);
    } finally {
      await stop();
      await client.close();
    }
  });

  it('does not offer a disabled prompt as an alternative to an unknown one', async () => {
    const client = await createTestClient(CatalogueModule, { protocolVersion: era });
    try {
      client.app.prompts.disable('greet');
      await expect(client.getPrompt({ name: 'greet', arguments: { who: 'Ada' } })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Unknown prompt: greet. Available prompts: farewell',
      });
    } finally {
      await client.close();
    }
  });

  it('tells sessions about a @ResourceList() added at runtime, and lists what it returns', async () => {
    class ExtraList {
      @ResourceList()
      listed() {
        return [{ uri: 'listed://one', name: 'one' }];
      }
    }
    const client = await createTestClient(CatalogueModule, { protocolVersion: era });
    const { counts, settle, stop } = await watchLists(client, era);
    try {
      client.app.resources.add(new ExtraList());
      await settle(1);
      expect(counts.resources).toBe(1);
      expect((await client.listResources()).resources.map((r) => r.uri)).toEqual(['config://app', 'listed://one']);
    } finally {
      await stop();
      await client.close();
    }
  });

  it('frees the URI of a removed resource, so it can be added again', async () => {
    const client = await createTestClient(CatalogueModule, { protocolVersion: era });
    try {
      client.app.resources.add(new ExtraResources());
      client.app.resources.remove('extraDoc');
      client.app.resources.add(new ExtraResources());
      expect((await client.readResource({ uri: 'extra://doc' })).contents).toEqual([
        { uri: 'extra://doc', mimeType: 'text/plain', text: 'extra doc' },
      ]);
    } finally {
      await client.close();
    }
  });
});

describe('list_changed on 2026-07-28 without subscriptions/listen', () => {
  it('delivers nothing: the modern era has no unsolicited notifications', async () => {
    const client = await createTestClient(CatalogueModule, { protocolVersion: '2026-07-28' });
    try {
      let received = 0;
      client.setNotificationHandler('notifications/tools/list_changed', () => void received++);
      client.app.tools.disable('alpha');
      await roundTrip(client); // a notification sent for the change would have arrived before this answer
      expect(received).toBe(0);
      expect(names((await client.listTools()).tools)).toEqual(['beta']);
    } finally {
      await client.close();
    }
  });
});

describe('unknown component names', () => {
  it('throws UNKNOWN_COMPONENT naming the known components', async () => {
    const app = await McpFactory.create(CatalogueModule);
    try {
      const failure = (change: () => void) => {
        try {
          change();
        } catch (error) {
          return error as McpReflectError;
        }
        throw new Error('expected the change to throw');
      };
      const tool = failure(() => app.tools.disable('nope'));
      expect(tool).toBeInstanceOf(McpReflectError);
      expect(tool.code).toBe('UNKNOWN_COMPONENT');
      expect(tool.message).toBe("Cannot change tool 'nope': there is no tool with that name.\nFix: use one of: 'alpha', 'beta'.");
      expect(failure(() => app.tools.enable('nope')).code).toBe('UNKNOWN_COMPONENT');
      expect(failure(() => app.tools.remove('nope')).code).toBe('UNKNOWN_COMPONENT');
      expect(() => app.tools.isEnabled('nope')).toThrow(McpReflectError);

      const prompt = failure(() => app.prompts.remove('nope'));
      expect(prompt.code).toBe('UNKNOWN_COMPONENT');
      expect(prompt.message).toBe(
        "Cannot change prompt 'nope': there is no prompt with that name.\nFix: use one of: 'greet', 'farewell'.",
      );
    } finally {
      await app.close();
    }
  });

  it('lists resources and templates alike in the fix for app.resources (as app.resources.names() does)', async () => {
    const app = await McpFactory.create(CatalogueModule);
    try {
      let resource: McpReflectError | undefined;
      try {
        app.resources.enable('nope');
      } catch (error) {
        resource = error as McpReflectError;
      }
      expect(resource?.code).toBe('UNKNOWN_COMPONENT');
      expect(resource?.message).toBe(
        "Cannot change resource 'nope': there is no resource with that name.\nFix: use one of: 'config', 'user'.",
      );
    } finally {
      await app.close();
    }
  });
});

@Injectable()
class TaggedComponents {
  @Tool({ tags: ['public'] })
  openTool(): string {
    return 'open';
  }

  @Tool({ tags: ['public', 'internal'] })
  mixedTool(): string {
    return 'mixed';
  }

  @Tool({ tags: ['internal'] })
  secretTool(): string {
    return 'secret';
  }

  @Tool()
  untaggedTool(): string {
    return 'untagged';
  }

  @Resource('public://doc', { tags: ['public'] })
  publicDoc(): string {
    return 'public';
  }

  @Resource('internal://doc', { tags: ['internal'] })
  internalDoc(): string {
    return 'internal';
  }

  @Resource('plain://doc')
  plainDoc(): string {
    return 'plain';
  }

  @ResourceTemplate('public://items/{id}', { tags: ['public'] })
  publicItem(@Param('id') id: string): string {
    return id;
  }

  @ResourceTemplate('internal://items/{id}', { tags: ['internal'] })
  internalItem(@Param('id') id: string): string {
    return id;
  }

  @Prompt({ tags: ['public'] })
  publicPrompt(): string {
    return 'public';
  }

  @Prompt({ tags: ['internal'] })
  internalPrompt(): string {
    return 'internal';
  }

  @Prompt()
  plainPrompt(): string {
    return 'plain';
  }
}

function taggedModule(filter: { includeTags?: string[]; excludeTags?: string[] }) {
  @Module({ imports: [McpModule.forRoot({ name: 'tags', version: '1.0.0', ...filter })], providers: [TaggedComponents] })
  class TaggedModule {}
  return TaggedModule;
}

describe.each(['2025-11-25', '2026-07-28'] as const)('forRoot({ includeTags, excludeTags }) (%s)', (era) => {
  async function exposed(filter: { includeTags?: string[]; excludeTags?: string[] }) {
    const client = await createTestClient(taggedModule(filter), { protocolVersion: era });
    try {
      return {
        tools: names((await client.listTools()).tools),
        resources: (await client.listResources()).resources.map((r) => r.uri),
        templates: (await client.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate),
        prompts: names((await client.listPrompts()).prompts),
        controlled: client.app.tools.names(),
      };
    } finally {
      await client.close();
    }
  }

  it('exposes everything without a filter', async () => {
    expect(await exposed({})).toEqual({
      tools: ['openTool', 'mixedTool', 'secretTool', 'untaggedTool'],
      resources: ['public://doc', 'internal://doc', 'plain://doc'],
      templates: ['public://items/{id}', 'internal://items/{id}'],
      prompts: ['publicPrompt', 'internalPrompt', 'plainPrompt'],
      controlled: ['openTool', 'mixedTool', 'secretTool', 'untaggedTool'],
    });
  });

  it('includeTags keeps only components with one of the tags (untagged ones are hidden)', async () => {
    expect(await exposed({ includeTags: ['public'] })).toEqual({
      tools: ['openTool', 'mixedTool'],
      resources: ['public://doc'],
      templates: ['public://items/{id}'],
      prompts: ['publicPrompt'],
      controlled: ['openTool', 'mixedTool'],
    });
  });

  it('excludeTags hides components with any of the tags', async () => {
    expect(await exposed({ excludeTags: ['internal'] })).toEqual({
      tools: ['openTool', 'untaggedTool'],
      resources: ['public://doc', 'plain://doc'],
      templates: ['public://items/{id}'],
      prompts: ['publicPrompt', 'plainPrompt'],
      controlled: ['openTool', 'untaggedTool'],
    });
  });

  it('excludeTags wins over includeTags', async () => {
    expect(await exposed({ includeTags: ['public'], excludeTags: ['internal'] })).toEqual({
      tools: ['openTool'],
      resources: ['public://doc'],
      templates: ['public://items/{id}'],
      prompts: ['publicPrompt'],
      controlled: ['openTool'],
    });
  });

  it('a hidden component cannot be called, read or rendered', async () => {
    const client = await createTestClient(taggedModule({ excludeTags: ['internal'] }), { protocolVersion: era });
    try {
      await expect(client.callTool({ name: 'secretTool', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: 'Unknown tool: secretTool',
      });
      await expect(client.readResource({ uri: 'internal://doc' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        data: { uri: 'internal://doc' },
      });
      await expect(client.readResource({ uri: 'internal://items/1' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        data: { uri: 'internal://items/1' },
      });
      await expect(client.getPrompt({ name: 'internalPrompt' })).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });
      expect(() => client.app.tools.enable('secretTool')).toThrow(McpReflectError);
    } finally {
      await client.close();
    }
  });
});

describe('a completer for a component hidden by tags', () => {
  @Injectable()
  class HiddenWithCompleter {
    @Prompt({ tags: ['internal'] })
    hidden(@Param('topic') topic: string): string {
      return topic;
    }

    @Complete({ prompt: 'hidden', argument: 'topic' })
    topics(): string[] {
      return ['a', 'b'];
    }

    @Tool()
    visible(): string {
      return 'visible';
    }

    @Prompt()
    shown(): string {
      return 'shown';
    }
  }

  @Module({
    imports: [McpModule.forRoot({ name: 'hidden', version: '1.0.0', excludeTags: ['internal'] })],
    providers: [HiddenWithCompleter],
  })
  class HiddenModule {}

  it('is dropped with its prompt rather than failing bootstrap', async () => {
    const client = await createTestClient(HiddenModule);
    try {
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['shown']);
      expect(
        (await client.complete({ ref: { type: 'ref/prompt', name: 'hidden' }, argument: { name: 'topic', value: '' } })).completion.values,
      ).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

@Injectable()
class ManyComponents {
  @Tool() t1(): string { return '1'; }
  @Tool() t2(): string { return '2'; }
  @Tool() t3(): string { return '3'; }
  @Tool() t4(): string { return '4'; }
  @Tool() t5(): string { return '5'; }

  @Prompt() p1(): string { return '1'; }
  @Prompt() p2(): string { return '2'; }
  @Prompt() p3(): string { return '3'; }

  @Resource('res://1') r1(): string { return '1'; }
  @Resource('res://2') r2(): string { return '2'; }
  @Resource('res://3') r3(): string { return '3'; }

  @ResourceTemplate('tpl://1/{id}') u1(@Param('id') id: string): string { return id; }
  @ResourceTemplate('tpl://2/{id}') u2(@Param('id') id: string): string { return id; }
  @ResourceTemplate('tpl://3/{id}') u3(@Param('id') id: string): string { return id; }
}

function pagedModule(pageSize?: number) {
  @Module({
    imports: [McpModule.forRoot({ name: 'paged', version: '1.0.0', ...(pageSize ? { pageSize } : {}) })],
    providers: [ManyComponents],
  })
  class PagedModule {}
  return PagedModule;
}

/**
 * The first page as the server sends it. `client.listTools()` without a cursor walks every page and returns
 * the aggregate (SDK v2), so the first page is requested directly; later pages pass `{ cursor }`.
 */
async function firstPage<M extends 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list'>(client: TestClient, method: M) {
  return client.request({ method, params: {} });
}

const invalidCursor = (cursor: string) =>
  `Invalid cursor '${cursor}': pass back a nextCursor this server returned, or omit the cursor to start from the first page.`;

describe.each(['2025-11-25', '2026-07-28'] as const)('forRoot({ pageSize }) (%s)', (era) => {
  it('pages tools/list with opaque cursors, and no nextCursor on the last page', async () => {
    const client = await createTestClient(pagedModule(2), { protocolVersion: era });
    try {
      // Without a cursor the SDK client aggregates every page.
      expect(names((await client.listTools()).tools)).toEqual(['t1', 't2', 't3', 't4', 't5']);
      const first = await firstPage(client, 'tools/list');
      expect(names(first.tools)).toEqual(['t1', 't2']);
      expect(typeof first.nextCursor).toBe('string');
      const second = await client.listTools({ cursor: first.nextCursor });
      expect(names(second.tools)).toEqual(['t3', 't4']);
      expect(typeof second.nextCursor).toBe('string');
      const last = await client.listTools({ cursor: second.nextCursor });
      expect(names(last.tools)).toEqual(['t5']);
      expect(last).not.toHaveProperty('nextCursor');

      // The same cursor gives the same page.
      expect(names((await client.listTools({ cursor: first.nextCursor })).tools)).toEqual(['t3', 't4']);

      for (const cursor of ['bogus', Buffer.from('mcp-reflect:99').toString('base64url'), Buffer.from('mcp-reflect:0').toString('base64url')]) {
        await expect(client.listTools({ cursor })).rejects.toMatchObject({
          code: ProtocolErrorCode.InvalidParams,
          message: invalidCursor(cursor),
        });
      }
    } finally {
      await client.close();
    }
  });

  it('pages prompts/list, resources/list and resources/templates/list', async () => {
    const client = await createTestClient(pagedModule(2), { protocolVersion: era });
    try {
      const prompts = await firstPage(client, 'prompts/list');
      expect(names(prompts.prompts)).toEqual(['p1', 'p2']);
      const lastPrompts = await client.listPrompts({ cursor: prompts.nextCursor });
      expect(names(lastPrompts.prompts)).toEqual(['p3']);
      expect(lastPrompts).not.toHaveProperty('nextCursor');

      const resources = await firstPage(client, 'resources/list');
      expect(resources.resources.map((r) => r.uri)).toEqual(['res://1', 'res://2']);
      const lastResources = await client.listResources({ cursor: resources.nextCursor });
      expect(lastResources.resources.map((r) => r.uri)).toEqual(['res://3']);
      expect(lastResources).not.toHaveProperty('nextCursor');

      const templates = await firstPage(client, 'resources/templates/list');
      expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['tpl://1/{id}', 'tpl://2/{id}']);
      const lastTemplates = await client.listResourceTemplates({ cursor: templates.nextCursor });
      expect(lastTemplates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(['tpl://3/{id}']);
      expect(lastTemplates).not.toHaveProperty('nextCursor');

      const bad = { code: ProtocolErrorCode.InvalidParams, message: invalidCursor('bogus') };
      await expect(client.listPrompts({ cursor: 'bogus' })).rejects.toMatchObject(bad);
      await expect(client.listResources({ cursor: 'bogus' })).rejects.toMatchObject(bad);
      await expect(client.listResourceTemplates({ cursor: 'bogus' })).rejects.toMatchObject(bad);
    } finally {
      await client.close();
    }
  });

  it.each([2, undefined])('rejects an empty cursor, which it never issues, even once the first page is cached (pageSize %s)', async (pageSize) => {
    const client = await createTestClient(pagedModule(pageSize), { protocolVersion: era });
    try {
      await firstPage(client, 'tools/list');
      await expect(client.listTools({ cursor: '' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: invalidCursor(''),
      });
    } finally {
      await client.close();
    }
  });

  it('recomputes pages after a change; a cursor past the new end is invalid', async () => {
    const client = await createTestClient(pagedModule(2), { protocolVersion: era });
    try {
      const second = await client.listTools({ cursor: (await firstPage(client, 'tools/list')).nextCursor });
      const tail = second.nextCursor!;
      client.app.tools.remove('t1');
      client.app.tools.remove('t2');
      const page = await firstPage(client, 'tools/list');
      expect(names(page.tools)).toEqual(['t3', 't4']);
      expect(names((await client.listTools({ cursor: page.nextCursor })).tools)).toEqual(['t5']);
      await expect(client.listTools({ cursor: tail })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: invalidCursor(tail),
      });
    } finally {
      await client.close();
    }
  });

  it('without pageSize answers everything in one page and rejects any cursor', async () => {
    const client = await createTestClient(pagedModule(), { protocolVersion: era });
    try {
      const all = await firstPage(client, 'tools/list');
      expect(names(all.tools)).toEqual(['t1', 't2', 't3', 't4', 't5']);
      expect(all).not.toHaveProperty('nextCursor');
      const cursor = Buffer.from('mcp-reflect:2').toString('base64url');
      const bad = { code: ProtocolErrorCode.InvalidParams, message: invalidCursor(cursor) };
      await expect(client.listTools({ cursor })).rejects.toMatchObject(bad);
      await expect(client.listPrompts({ cursor })).rejects.toMatchObject(bad);
      await expect(client.listResources({ cursor })).rejects.toMatchObject(bad);
      await expect(client.listResourceTemplates({ cursor })).rejects.toMatchObject(bad);
    } finally {
      await client.close();
    }
  });
});
