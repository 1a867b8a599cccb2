import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  Complete,
  Injectable,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceList,
  ResourceResult,
  ResourceTemplate,
  ToolError,
  embeddedResource,
  image,
  userMessage,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

const USERS = [
  { id: 1, name: 'Ada' },
  { id: 2, name: 'Alan' },
];

@Injectable()
class Library {
  @Resource('test://static-text', { description: 'A text', mimeType: 'text/plain' })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource('test://static-binary', { mimeType: 'image/png' })
  staticBinary(): Uint8Array {
    return Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
  }

  @Resource('config://app')
  settings(): object {
    return { theme: 'dark' };
  }

  @Resource('test://many')
  many(): ResourceResult {
    return new ResourceResult([
      { uri: 'test://many#1', text: 'one' },
      { uri: 'test://many#2', mimeType: 'text/markdown', text: '# two' },
    ]);
  }

  @Resource('test://broken')
  broken(): never {
    throw new ToolError('The backing store is offline.');
  }

  @ResourceTemplate('users://{id}/profile', { description: 'A user', mimeType: 'application/json' })
  profile(@Param('id', { type: 'integer' }) id: number): object {
    const user = USERS.find((u) => u.id === id);
    if (!user) throw new ToolError(`No user ${id}`);
    return user;
  }

  @ResourceList()
  users() {
    return USERS.map((u) => ({ uri: `users://${u.id}/profile`, name: u.name, mimeType: 'application/json' }));
  }

  @Prompt({ description: 'A simple prompt' })
  simple(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({ name: 'review', description: 'Review code', complete: { language: ['typescript', 'python', 'go'] } })
  reviewCode(
    @Param('code', { description: 'the code' }) code: string,
    @Param('language', { optional: true }) language?: string,
  ) {
    return [userMessage(`Review this ${language ?? 'code'}:`), userMessage(code)];
  }

  @Prompt({ description: 'With resource and image' })
  rich(@Param('uri') uri: string) {
    return {
      messages: [userMessage(embeddedResource(uri, 'Embedded text', 'text/plain')), userMessage(image('iVBORw0KGgo=', 'image/png'))],
    };
  }

  @Complete({ resourceTemplate: 'users://{id}/profile', argument: 'id' })
  userIds(value: string): string[] {
    return USERS.map((u) => String(u.id)).filter((id) => id.startsWith(value));
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'library', version: '1.0.0' })], providers: [Library] })
class LibraryModule {}

describe.each(['2025-11-25', '2026-07-28'] as const)('resources, prompts and completions (%s)', (protocolVersion) => {
  it('lists and reads resources and templates', async () => {
    const client = await createTestClient(LibraryModule, { protocolVersion });
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual([
        'test://static-text',
        'test://static-binary',
        'config://app',
        'test://many',
        'test://broken',
        'users://1/profile',
        'users://2/profile',
      ]);
      expect(resources[0]).toEqual({ uri: 'test://static-text', name: 'staticText', description: 'A text', mimeType: 'text/plain' });
      const { resourceTemplates } = await client.listResourceTemplates();
      expect(resourceTemplates).toEqual([
        { uriTemplate: 'users://{id}/profile', name: 'profile', description: 'A user', mimeType: 'application/json' },
      ]);

      expect((await client.readResource({ uri: 'test://static-text' })).contents).toEqual([
        { uri: 'test://static-text', mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ]);
      expect((await client.readResource({ uri: 'test://static-binary' })).contents).toEqual([
        { uri: 'test://static-binary', mimeType: 'image/png', blob: 'iVBORw==' },
      ]);
      expect((await client.readResource({ uri: 'config://app' })).contents).toEqual([
        { uri: 'config://app', mimeType: 'application/json', text: '{"theme":"dark"}' },
      ]);
      expect((await client.readResource({ uri: 'test://many' })).contents).toHaveLength(2);
      expect((await client.readResource({ uri: 'users://2/profile' })).contents).toEqual([
        { uri: 'users://2/profile', mimeType: 'application/json', text: '{"id":2,"name":"Alan"}' },
      ]);

      await expect(client.readResource({ uri: 'users://abc/profile' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining("Invalid resource URI 'users://abc/profile' for template 'users://{id}/profile': id: must be an integer"),
      });
      await expect(client.readResource({ uri: 'test://broken' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InternalError,
        message: expect.stringContaining('The backing store is offline.'),
      });
      // -32602 with data.uri in both eras: what 2026-07-28 requires and what SDK v2 sends on 2025-era sessions.
      await expect(client.readResource({ uri: 'test://nothing' })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('Resource not found: test://nothing'),
        data: { uri: 'test://nothing' },
      });
    } finally {
      await client.close();
    }
  });

  it('lists and renders prompts, and completes arguments', async () => {
    const client = await createTestClient(LibraryModule, { protocolVersion });
    try {
      const { prompts } = await client.listPrompts();
      expect(prompts.find((p) => p.name === 'review')).toEqual({
        name: 'review',
        description: 'Review code',
        arguments: [
          { name: 'code', description: 'the code', required: true },
          { name: 'language', required: false },
        ],
      });
      expect((await client.getPrompt({ name: 'simple' })).messages).toEqual([
        { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
      ]);
      const review = await client.getPrompt({ name: 'review', arguments: { code: 'x = 1', language: 'python' } });
      expect(review.description).toBe('Review code');
      expect(review.messages.map((m) => (m.content as { text: string }).text)).toEqual(['Review this python:', 'x = 1']);
      const rich = await client.getPrompt({ name: 'rich', arguments: { uri: 'test://doc' } });
      expect(rich.messages[0].content).toEqual({
        type: 'resource',
        resource: { uri: 'test://doc', mimeType: 'text/plain', text: 'Embedded text' },
      });
      expect(rich.messages[1].content).toEqual({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });

      await expect(client.getPrompt({ name: 'review', arguments: {} })).rejects.toMatchObject({
        code: ProtocolErrorCode.InvalidParams,
        message: expect.stringContaining('Invalid arguments for prompt review: code: is required'),
      });
      await expect(client.getPrompt({ name: 'nope' })).rejects.toMatchObject({ code: ProtocolErrorCode.InvalidParams });

      const languages = await client.complete({ ref: { type: 'ref/prompt', name: 'review' }, argument: { name: 'language', value: 'py' } });
      expect(languages.completion).toEqual({ values: ['python'], total: 1, hasMore: false });
      const ids = await client.complete({
        ref: { type: 'ref/resource', uri: 'users://{id}/profile' },
        argument: { name: 'id', value: '' },
      });
      expect(ids.completion.values).toEqual(['1', '2']);
      const none = await client.complete({ ref: { type: 'ref/prompt', name: 'simple' }, argument: { name: 'x', value: '' } });
      expect(none.completion.values).toEqual([]);
    } finally {
      await client.close();
    }
  });
});
