import 'reflect-metadata';
import { Context, Ctx, Injectable, McpFactory, McpModule, Module, Param, Tool, type GeneratedClass, type GeneratedMetadata, type McpApplication } from 'mcp-reflect';
import { createTestClient, Test, type TestClient } from 'mcp-reflect/testing';

// Generated metadata belongs to the application it was given to (issue 23, item 4): two applications in one
// process, given different generated modules for the same class (or for two classes of the same name), each
// serve their own schemas, however their bootstraps interleave, and whatever the other loaded later.

/** The entry `mcp-reflect generate` writes for a class whose method `greet(style)` takes one of `styles`. */
function greeterEntry(cls: Function | undefined, name: string, file: string, styles: readonly string[]): GeneratedClass {
  return {
    name,
    file,
    ...(cls ? { ref: cls } : {}),
    methods: {
      greet: {
        fingerprint: 'greet(style)',
        description: `Greets in the ${styles.join('/')} styles`,
        params: [{ name: 'style', index: 0, schema: { type: 'string', enum: [...styles] } }],
      },
    },
  };
}

const generated = (...classes: GeneratedClass[]): GeneratedMetadata => ({ version: 1, generator: 'mcp-reflect@spec', classes });

@Injectable()
class Greeter {
  @Tool()
  greet(@Param() style: string): string {
    return `hello (${style})`;
  }
}

const plainModule = (name: string, metadata?: GeneratedMetadata) => {
  @Module({ imports: [McpModule.forRoot({ name, version: '1.0.0', ...(metadata ? { metadata } : {}) })], providers: [Greeter] })
  class GreeterModule {}
  return GreeterModule;
};

/** The enum of `greet`'s `style`, as an SDK client lists it. */
async function styles(client: TestClient): Promise<unknown> {
  const { tools } = await client.listTools();
  return (tools.find((t) => t.name === 'greet')?.inputSchema.properties as Record<string, { enum?: unknown }> | undefined)?.style?.enum;
}

const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

describe('generated metadata belongs to one application', () => {
  const clients: TestClient[] = [];
  const connect = async (app: McpApplication | Function, options?: { metadata?: GeneratedMetadata }) => {
    const client = await createTestClient(app as McpApplication, options);
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
  });

  it('two applications of the same tool class, created concurrently with different metadata, serve and validate their own', async () => {
    const m1 = generated(greeterEntry(Greeter, 'Greeter', 'src/greeter.ts', ['formal', 'casual']));
    const m2 = generated(greeterEntry(Greeter, 'Greeter', 'src/greeter.ts', ['loud', 'quiet']));
    // Interleaved bootstraps: the second application loads its metadata while the first is still being built.
    const [a, b, c] = await Promise.all([
      McpFactory.create(plainModule('a'), { metadata: m1 }),
      McpFactory.create(plainModule('b'), { metadata: m2 }),
      McpFactory.create(plainModule('c', m1)), // McpModule.forRoot({ metadata })
    ]);
    const [clientA, clientB, clientC] = await Promise.all([connect(a), connect(b), connect(c)]);
    expect(await styles(clientA)).toEqual(['formal', 'casual']);
    expect(await styles(clientB)).toEqual(['loud', 'quiet']);
    expect(await styles(clientC)).toEqual(['formal', 'casual']);
    expect((await clientB.listTools()).tools[0]!.description).toBe('Greets in the loud/quiet styles');

    expect(text(await clientA.callTool({ name: 'greet', arguments: { style: 'formal' } }))).toBe('hello (formal)');
    expect(await clientA.callTool({ name: 'greet', arguments: { style: 'loud' } })).toMatchObject({ isError: true });
    expect(text(await clientB.callTool({ name: 'greet', arguments: { style: 'loud' } }))).toBe('hello (loud)');
    expect(await clientB.callTool({ name: 'greet', arguments: { style: 'formal' } })).toMatchObject({ isError: true });
  });

  it('a testing module compiles with the metadata it is given, and only it', async () => {
    const typed = await Test.createTestingModule({ imports: [plainModule('testing')] }).compile({
      metadata: generated(greeterEntry(Greeter, 'Greeter', 'src/greeter.ts', ['formal'])),
    });
    const plain = await Test.createTestingModule({ imports: [plainModule('testing-plain')] }).compile();
    expect(await styles(await connect(typed.app))).toEqual(['formal']);
    expect(await styles(await connect(plain.app))).toBeUndefined();
  });

  it('an application without metadata, created after one with, serves the reflected types only', async () => {
    await connect(plainModule('typed'), { metadata: generated(greeterEntry(Greeter, 'Greeter', 'src/greeter.ts', ['formal', 'casual'])) });
    const plain = await connect(plainModule('plain'));
    const { tools } = await plain.listTools();
    expect(tools[0]).toEqual({
      name: 'greet',
      inputSchema: { type: 'object', properties: { style: { type: 'string' } }, required: ['style'], additionalProperties: false },
    });
  });

  it('two classes of the same name in two applications, matched by name (not exported), each get their own entry', async () => {
    const first = (() => {
      @Injectable()
      class Notes {
        @Tool() greet(@Param() style: string): string {
          return `first ${style}`;
        }
      }
      return Notes;
    })();
    const second = (() => {
      @Injectable()
      class Notes {
        @Tool() greet(@Param() style: string): string {
          return `second ${style}`;
        }
      }
      return Notes;
    })();
    const moduleOf = (name: string, provider: typeof first) => {
      @Module({ imports: [McpModule.forRoot({ name, version: '1.0.0' })], providers: [provider] })
      class NotesModule {}
      return NotesModule;
    };
    // Entries without `ref`: the generated module could not import the class, so it is matched by its name.
    const a = await connect(moduleOf('a', first), { metadata: generated(greeterEntry(undefined, 'Notes', 'src/a/notes.ts', ['short'])) });
    const b = await connect(moduleOf('b', second), { metadata: generated(greeterEntry(undefined, 'Notes', 'src/b/notes.ts', ['long'])) });
    expect(await styles(a)).toEqual(['short']);
    expect(await styles(b)).toEqual(['long']);
    expect(text(await b.callTool({ name: 'greet', arguments: { style: 'long' } }))).toBe('second long');
  });

  it('what an application compiles later (app.tools.add(), an elicitation form) uses its own metadata, not the newest', async () => {
    class Invitee {
      role!: string;
    }
    @Injectable()
    class Inviter {
      @Tool()
      async invite(@Ctx() ctx: Context): Promise<string> {
        const answer = await ctx.elicit('Who?', Invitee);
        return answer.action === 'accept' ? `invited a ${answer.content.role}` : answer.action;
      }
    }
    const inviteeEntry = (roles: string[]): GeneratedClass => ({
      name: 'Invitee',
      file: 'src/invitee.ts',
      ref: Invitee,
      properties: { role: { schema: { type: 'string', enum: roles }, decorated: false } },
    });
    const inviterEntry: GeneratedClass = { name: 'Inviter', file: 'src/inviter.ts', ref: Inviter, methods: { invite: { fingerprint: 'invite(ctx)', params: [] } } };
    const metadataOf = (styles: string[], roles: string[]) => generated(greeterEntry(Greeter, 'Greeter', 'src/greeter.ts', styles), inviteeEntry(roles), inviterEntry);
    @Module({ imports: [McpModule.forRoot({ name: 'later', version: '1.0.0' })], providers: [Inviter] })
    class InviterModule {}

    const first = await McpFactory.create(InviterModule, { metadata: metadataOf(['formal'], ['guest', 'host']) });
    const client = await createTestClient(first, { capabilities: { elicitation: {} } });
    clients.push(client);
    // Another application loads other metadata for the same classes after the first one was built.
    await connect(InviterModule, { metadata: metadataOf(['loud'], ['speaker']) });

    const asked: unknown[] = [];
    client.setRequestHandler('elicitation/create', async (request) => {
      asked.push(request.params.mode === 'url' ? undefined : request.params.requestedSchema);
      return { action: 'accept', content: { role: 'host' } };
    });
    expect(text(await client.callTool({ name: 'invite', arguments: {} }))).toBe('invited a host');
    expect(asked).toEqual([{ type: 'object', properties: { role: { type: 'string', enum: ['guest', 'host'] } }, required: ['role'] }]);
    first.tools.add(new Greeter());
    expect(await styles(client)).toEqual(['formal']);
  });
});
