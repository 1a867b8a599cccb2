import 'reflect-metadata';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import {
  Complete,
  CurrentAuth,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Public,
  Resource,
  ResourceTemplate,
  Scopes,
  Tool,
  UseGuards,
  userMessage,
  type CanActivate,
  type ExecutionContext,
  type McpApplication,
  type McpAuth,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { answer } from '../support/clients';

/** Only Ada's own client may purge: a guard reading the verified identity. */
class AdaOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.auth?.subject === 'ada' && context.auth.claims.tenant === 'acme';
  }
}

@Injectable()
@Scopes('files:read')
class Files {
  @Tool()
  listFiles(): string[] {
    return ['a.txt'];
  }

  @Tool()
  @Scopes('files:write', 'files:audit')
  deleteFile(@Param() name: string, @CurrentAuth('subject') by: string): string {
    return `${name} deleted by ${by}`;
  }

  @Tool()
  @Public()
  help(@CurrentAuth() auth: McpAuth | undefined): string {
    return auth ? `hello ${auth.subject ?? auth.clientId} (${auth.scopes.join(' ') || 'no scopes'})` : 'hello stranger';
  }

  @Tool()
  @UseGuards(AdaOnly)
  purge(): string {
    return 'purged';
  }

  @Resource('files://index')
  index(): string {
    return 'a.txt';
  }

  @ResourceTemplate('files://{name}')
  @Scopes('files:content')
  file(@Param() name: string): string {
    return `content of ${name}`;
  }

  @Prompt()
  @Scopes('files:prompts')
  review(@Param() name: string) {
    return [userMessage(`Review ${name}`)];
  }

  @Complete({ resourceTemplate: 'files://{name}', argument: 'name' })
  names(): string[] {
    return ['a.txt', 'b.txt'];
  }
}

/** Unscoped components are served to every caller, with or without identity. */
@Injectable()
class Open {
  @Tool()
  ping(): string {
    return 'pong';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'scoped', version: '1.0.0' })], providers: [Files, Open] })
class ScopedModule {}

const ALL = ['files:read', 'files:write', 'files:audit', 'files:content', 'files:prompts'];

describe('@Scopes and @Public (in memory and stdio-like connections, where the identity is given)', () => {
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });
  const client = async (auth?: Partial<McpAuth>, protocolVersion?: '2026-07-28') => {
    const c = await createTestClient(ScopedModule, { auth, protocolVersion });
    clients.push(c);
    return c;
  };
  const toolNames = async (c: Client) => (await c.listTools()).tools.map((t) => t.name).sort();

  it('shows each caller only the components its scopes allow, in every list', async () => {
    const reader = await client({ subject: 'bob', scopes: ['files:read'] });
    expect(await toolNames(reader)).toEqual(['help', 'listFiles', 'ping']);
    expect((await reader.listResources()).resources.map((r) => r.uri)).toEqual(['files://index']);
    expect((await reader.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await reader.listPrompts()).prompts).toEqual([]);

    const all = await client({ subject: 'ada', scopes: ALL, claims: { sub: 'ada', tenant: 'acme' } });
    expect(await toolNames(all)).toEqual(['deleteFile', 'help', 'listFiles', 'ping', 'purge']);
    expect((await all.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['files://{name}']);
    expect((await all.listPrompts()).prompts.map((p) => p.name)).toEqual(['review']);
  });

  it('answers a call without a needed scope with an error naming the scopes, whatever the kind', async () => {
    const reader = await client({ subject: 'bob', scopes: ['files:read'] });
    expect(answer(await reader.callTool({ name: 'deleteFile', arguments: { name: 'a.txt' } }))).toEqual({
      text: "Insufficient scope: the tool 'deleteFile' needs the scopes files:read files:write files:audit, which the access token does not grant. Ask the authorization server for them.",
      isError: true,
    });
    await expect(reader.readResource({ uri: 'files://a.txt' })).rejects.toThrow(/Insufficient scope: the resource template 'file' needs the scopes files:read files:content/);
    await expect(reader.getPrompt({ name: 'review', arguments: { name: 'a.txt' } })).rejects.toThrow(/Insufficient scope: the prompt 'review' needs/);
    // What it may use still works, and the method never ran for the refused call.
    expect(answer(await reader.callTool({ name: 'listFiles', arguments: {} }))).toEqual({ text: '["a.txt"]', isError: false });
  });

  it('serves a call with every scope, and gives the method the identity', async () => {
    const all = await client({ subject: 'ada', scopes: ALL, claims: { sub: 'ada', tenant: 'acme' } });
    expect(answer(await all.callTool({ name: 'deleteFile', arguments: { name: 'a.txt' } })).text).toBe('a.txt deleted by ada');
    expect((await all.readResource({ uri: 'files://b.txt' })).contents).toEqual([{ uri: 'files://b.txt', text: 'content of b.txt', mimeType: 'text/plain' }]);
    expect(answer(await all.callTool({ name: 'purge', arguments: {} })).text).toBe('purged');
  });

  it('lets guards read the identity: another subject does not see nor call the guarded tool', async () => {
    const bob = await client({ subject: 'bob', scopes: ALL, claims: { sub: 'bob', tenant: 'acme' } });
    expect(await toolNames(bob)).not.toContain('purge');
    await expect(bob.callTool({ name: 'purge', arguments: {} })).rejects.toThrow(/Unknown tool: purge/);
  });

  it('hides scoped components from a connection without identity, and says why a call is refused', async () => {
    const anonymous = await client();
    expect(await toolNames(anonymous)).toEqual(['help', 'ping']);
    expect(answer(await anonymous.callTool({ name: 'help', arguments: {} })).text).toBe('hello stranger');
    expect(answer(await anonymous.callTool({ name: 'listFiles', arguments: {} }))).toEqual({
      text: "Authentication required: the tool 'listFiles' needs the scope files:read, and this connection carries no identity.",
      isError: true,
    });
  });

  it('lets @Public() lift the scopes of its class', async () => {
    const none = await client({ subject: 'eve', scopes: [] });
    expect(await toolNames(none)).toEqual(['help', 'ping']);
    expect(answer(await none.callTool({ name: 'help', arguments: {} })).text).toBe('hello eve (no scopes)');
  });

  it('works the same on the 2026-07-28 wire', async () => {
    const reader = await client({ subject: 'bob', scopes: ['files:read'] }, '2026-07-28');
    expect(await toolNames(reader)).toEqual(['help', 'listFiles', 'ping']);
    expect(answer(await reader.callTool({ name: 'deleteFile', arguments: { name: 'x' } })).isError).toBe(true);
  });

  it('takes the identity of a connection from connect() (as listen() does for stdio)', async () => {
    const app: McpApplication = await McpFactory.create(ScopedModule);
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await app.connect(serverTransport, { auth: { subject: 'svc', clientId: 'cli', scopes: ['files:read'], claims: {}, token: '' } });
    const c = new Client({ name: 'c', version: '1' });
    await c.connect(clientTransport);
    expect(answer(await c.callTool({ name: 'help', arguments: {} })).text).toBe('hello svc (files:read)');
    await c.close();
    await app.close();
  });
});

describe('completions of scoped prompts and templates', () => {
  it('completes only for a caller who may use the prompt or template', async () => {
    const reader = await createTestClient(ScopedModule, { auth: { subject: 'bob', scopes: ['files:read'] } });
    const content = await createTestClient(ScopedModule, { auth: { subject: 'ada', scopes: ['files:read', 'files:content'] } });
    const ask = (c: Client) => c.complete({ ref: { type: 'ref/resource', uri: 'files://{name}' }, argument: { name: 'name', value: 'a' } });
    expect((await ask(reader)).completion.values).toEqual([]);
    expect((await ask(content)).completion.values).toEqual(['a.txt', 'b.txt']);
    await reader.close();
    await content.close();
  });
});
