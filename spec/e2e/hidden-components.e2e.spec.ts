import 'reflect-metadata';
import {
  Complete,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceList,
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
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { legacyRequest } from '../tasks/legacy-client';
import { Arrivals, roundTrip } from '../support/waiting';

/**
 * "A hidden component must be indistinguishable from a missing one on every path": each component below is
 * hidden from a visitor by a guard (`AdminOnly`) or by `@Scopes()`, and each method that names a component is
 * asked about it and about one that does not exist. The answers must be the same, the name aside.
 */
class AdminOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return (context.auth?.claims.roles as string[] | undefined)?.includes('admin') === true;
  }
}

let runs = 0;

@Injectable()
class Vault {
  @Tool() @UseGuards(AdminOnly) purge(): string {
    runs++;
    return 'purged';
  }

  @Tool({ task: 'optional' }) @UseGuards(AdminOnly) backup(): string {
    runs++;
    return 'backed up';
  }

  @Tool({ task: 'required' }) @UseGuards(AdminOnly) restore(): string {
    runs++;
    return 'restored';
  }

  @Tool({ task: 'optional' }) @Scopes('vault:admin') reindex(): string {
    runs++;
    return 'reindexed';
  }

  @Resource('vault://plans') @UseGuards(AdminOnly) plans(): string {
    return 'the plans';
  }

  @Resource('vault://keys') @Scopes('vault:admin') keys(): string {
    return 'the keys';
  }

  @ResourceTemplate('vault://safe/{id}') @UseGuards(AdminOnly) safe(@Param() id: string): string {
    return `safe ${id}`;
  }

  @ResourceTemplate('vault://box/{id}') @Scopes('vault:admin') box(@Param() id: string): string {
    return `box ${id}`;
  }

  @Resource('vault://lobby') lobby(): string {
    return 'the lobby';
  }

  @Prompt() @UseGuards(AdminOnly) confess(@Param() topic: string) {
    return [userMessage(`Confess ${topic}`)];
  }

  @Prompt() @Scopes('vault:admin') audit(@Param() topic: string) {
    return [userMessage(`Audit ${topic}`)];
  }

  @Prompt() greet(@Param() topic: string) {
    return [userMessage(`Hello ${topic}`)];
  }
}

/** Completers with no guard of their own: whether they answer is the prompt's or template's visibility. */
@Injectable()
class VaultCompleters {
  @Complete({ prompt: 'confess', argument: 'topic' }) confessTopics(): string[] {
    return ['the heist'];
  }

  @Complete({ prompt: 'audit', argument: 'topic' }) auditTopics(): string[] {
    return ['the ledger'];
  }

  @Complete({ resourceTemplate: 'vault://safe/{id}', argument: 'id' }) safeIds(): string[] {
    return ['s-1'];
  }

  @Complete({ resourceTemplate: 'vault://box/{id}', argument: 'id' }) boxIds(): string[] {
    return ['b-1'];
  }

  @Complete({ prompt: 'greet', argument: 'topic' }) greetTopics(): string[] {
    return ['the world'];
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'vault', version: '1.0.0', tasks: {} })], providers: [Vault, VaultCompleters] })
class VaultModule {}

const VISITOR: Partial<McpAuth> = { subject: 'eve', scopes: [] };
const ADMIN: Partial<McpAuth> = { subject: 'ada', scopes: ['vault:admin'], claims: { sub: 'ada', roles: ['admin'] } };

/** What a request was answered with, as comparable data: the result, or the JSON-RPC error's code, message and data. */
async function outcome(request: Promise<unknown>): Promise<unknown> {
  try {
    return { result: await request };
  } catch (error) {
    const { code, message, data } = error as { code?: unknown; message?: unknown; data?: unknown };
    return { error: { code, message, data } };
  }
}

/** The answer about `hidden`, with its name written as `missing`'s: equal to the answer about `missing` when nothing leaks. */
async function asIfMissing(ask: (name: string) => Promise<unknown>, hidden: string, missing: string): Promise<unknown> {
  return JSON.parse(JSON.stringify(await outcome(ask(hidden))).split(hidden).join(missing));
}

const updatesOf = (client: TestClient): Arrivals<string> => {
  const uris = new Arrivals<string>();
  client.setNotificationHandler('notifications/resources/updated', (n) => uris.push(n.params.uri));
  return uris;
};

describe('a component the caller may not see answers as a missing one', () => {
  let app: McpApplication;
  const clients: TestClient[] = [];
  const connect = async (auth: Partial<McpAuth>, protocolVersion?: '2026-07-28') => {
    const client = await createTestClient(app, { auth, protocolVersion });
    Object.assign(client, { close: () => Object.getPrototypeOf(client).close.call(client) }); // the app outlives each client
    clients.push(client);
    return client;
  };
  beforeAll(async () => {
    app = await McpFactory.create(VaultModule);
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });
  afterAll(() => app.close());

  it.each(['2025-11-25', '2026-07-28'] as const)('on tools/call, resources/read, prompts/get and completion/complete (%s)', async (era) => {
    const visitor = await connect(VISITOR, era === '2026-07-28' ? era : undefined);
    const same = async (ask: (name: string) => Promise<unknown>, hidden: string, missing: string) =>
      expect(await asIfMissing(ask, hidden, missing)).toEqual(await outcome(ask(missing)));

    await same((name) => visitor.callTool({ name, arguments: {} }), 'purge', 'nothing');
    await same((uri) => visitor.readResource({ uri }), 'vault://plans', 'vault://nothing');
    await same((uri) => visitor.readResource({ uri }), 'vault://safe/1', 'vault://nothing/1');
    // The unknown-prompt message names the prompts the caller's list shows, and no other.
    await same((name) => visitor.getPrompt({ name, arguments: { topic: 'x' } }), 'confess', 'nothing');
    expect(await outcome(visitor.getPrompt({ name: 'nothing', arguments: { topic: 'x' } }))).toEqual({
      error: { code: -32602, message: 'Unknown prompt: nothing. Available prompts: greet', data: undefined },
    });
    // A prompt or template hidden by a guard or by its scopes has nothing to complete, like a missing one.
    const completePrompt = (name: string) => visitor.complete({ ref: { type: 'ref/prompt', name }, argument: { name: 'topic', value: '' } });
    const completeTemplate = (uri: string) => visitor.complete({ ref: { type: 'ref/resource', uri }, argument: { name: 'id', value: '' } });
    await same(completePrompt, 'confess', 'nothing');
    await same(completePrompt, 'audit', 'nothing');
    await same(completeTemplate, 'vault://safe/{id}', 'vault://nothing/{id}');
    await same(completeTemplate, 'vault://box/{id}', 'vault://nothing/{id}');
    expect((await completePrompt('nothing')).completion.values).toEqual([]);
    expect((await completePrompt('greet')).completion.values).toEqual(['the world']);

    // What the visitor may not see, the admin uses.
    const admin = await connect(ADMIN, era === '2026-07-28' ? era : undefined);
    expect((await admin.complete({ ref: { type: 'ref/prompt', name: 'confess' }, argument: { name: 'topic', value: '' } })).completion.values).toEqual(['the heist']);
    expect((await admin.complete({ ref: { type: 'ref/resource', uri: 'vault://box/{id}' }, argument: { name: 'id', value: '' } })).completion.values).toEqual(['b-1']);
    expect((await outcome(admin.getPrompt({ name: 'nothing', arguments: { topic: 'x' } }))) as object).toMatchObject({
      error: { message: 'Unknown prompt: nothing. Available prompts: confess, audit, greet' },
    });
  });

  it('has nothing to complete for a disabled prompt', async () => {
    const admin = await connect(ADMIN);
    app.prompts.disable('greet');
    try {
      expect((await admin.complete({ ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'topic', value: '' } })).completion).toEqual({ values: [] });
    } finally {
      app.prompts.enable('greet');
    }
  });

  it('on resources/subscribe and resources/unsubscribe (2025-11-25), and sends no update of what it refused', async () => {
    const visitor = await connect(VISITOR);
    const admin = await connect(ADMIN);
    const toVisitor = updatesOf(visitor);
    const toAdmin = updatesOf(admin);
    const subscribe = (uri: string) => visitor.subscribeResource({ uri });
    for (const uri of ['vault://plans', 'vault://keys', 'vault://safe/1', 'vault://box/1']) {
      expect(await asIfMissing(subscribe, uri, 'vault://nothing')).toEqual(await outcome(subscribe('vault://nothing')));
      expect(await outcome(subscribe(uri))).toEqual({ error: { code: -32602, message: `Resource not found: ${uri}`, data: { uri } } });
      expect(await asIfMissing((u) => visitor.unsubscribeResource({ uri: u }), uri, 'vault://nothing')).toEqual(await outcome(visitor.unsubscribeResource({ uri: 'vault://nothing' })));
      await admin.subscribeResource({ uri });
    }
    await visitor.subscribeResource({ uri: 'vault://lobby' });
    for (const uri of ['vault://plans', 'vault://keys', 'vault://safe/1', 'vault://box/1', 'vault://lobby']) await app.notifyResourceUpdated(uri);
    await toAdmin.until(4);
    await toVisitor.until(1);
    await roundTrip(visitor);
    expect(toVisitor.items).toEqual(['vault://lobby']);
    expect(toAdmin.items).toEqual(['vault://plans', 'vault://keys', 'vault://safe/1', 'vault://box/1']);
  });

  it('sends a 2026-07-28 listen stream no update of a resource its caller may not see', async () => {
    const visitor = await connect(VISITOR, '2026-07-28');
    const admin = await connect(ADMIN, '2026-07-28');
    const toVisitor = updatesOf(visitor);
    const toAdmin = updatesOf(admin);
    const uris = ['vault://plans', 'vault://keys', 'vault://safe/1', 'vault://box/1', 'vault://lobby', 'vault://nothing'];
    const visitorStream = await visitor.listen({ resourceSubscriptions: uris });
    const adminStream = await admin.listen({ resourceSubscriptions: uris });
    // The filter is acknowledged as asked, hidden URIs included, as it is for URIs nothing serves.
    expect(visitorStream.honoredFilter).toEqual({ resourceSubscriptions: uris });
    for (const uri of uris) await app.notifyResourceUpdated(uri);
    await toAdmin.until(6);
    await toVisitor.until(2);
    await roundTrip(visitor);
    expect(toVisitor.items).toEqual(['vault://lobby', 'vault://nothing']);
    expect(toAdmin.items).toEqual(uris);
    await visitorStream.close();
    await adminStream.close();
  });

  it('asks a task tool’s guards and scopes before a task exists, so a hidden task tool answers as a missing tool', async () => {
    const visitor = await connect(VISITOR);
    runs = 0;
    const call = (name: string, task?: object) => legacyRequest(visitor, 'tools/call', { name, arguments: {}, ...(task ? { task } : {}) });
    expect(await asIfMissing((name) => call(name, {}), 'backup', 'nothing')).toEqual(await outcome(call('nothing', {})));
    // A tool that runs only as a task: not "runs only as a task", which would name it.
    expect(await asIfMissing((name) => call(name), 'restore', 'nothing')).toEqual(await outcome(call('nothing')));
    // Missing scopes: the refusal an ordinary call gets (docs/auth.md), not a task that fails later.
    expect(await call('reindex', {})).toEqual({
      content: [{ type: 'text', text: "Insufficient scope: the tool 'reindex' needs the scope vault:admin, which the access token does not grant. Ask the authorization server for it." }],
      isError: true,
    });
    expect((await legacyRequest(visitor, 'tasks/list')).tasks).toEqual([]);
    expect(runs).toBe(0);

    const admin = await connect(ADMIN);
    const created = await legacyRequest(admin, 'tools/call', { name: 'backup', arguments: {}, task: {} });
    expect(created.task).toMatchObject({ status: expect.any(String) });
    expect(await legacyRequest(admin, 'tasks/result', { taskId: created.task.taskId })).toMatchObject({ content: [{ type: 'text', text: 'backed up' }] });
  });
});

/** Only callers whose token carries `audit:read` see the audit trail that a `@ResourceList()` method lists. */
class AuditorsOnly implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return context.auth?.scopes.includes('audit:read') === true;
  }
}

@Injectable()
class Trails {
  @Resource('trail://public') open(): string {
    return 'open';
  }

  @ResourceList() @UseGuards(AuditorsOnly) trails() {
    return [{ uri: 'trail://2026', name: 'trail 2026' }];
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'trails', version: '1.0.0', cacheHints: { 'resources/list': { ttlMs: 60_000, cacheScope: 'public' } } })], providers: [Trails] })
class TrailsModule {}

describe('cache hints of a list that depends on the caller', () => {
  it('sends resources/list out private when a guarded @ResourceList() method shapes it, not public', async () => {
    const app = await McpFactory.create(TrailsModule);
    const auditor = await createTestClient(app, { auth: { subject: 'ada', scopes: ['audit:read'] }, protocolVersion: '2026-07-28' });
    const visitor = await createTestClient(app, { auth: { subject: 'eve', scopes: [] }, protocolVersion: '2026-07-28' });
    try {
      const seen = await auditor.listResources();
      expect(seen.resources.map((r) => r.uri)).toEqual(['trail://public', 'trail://2026']);
      expect(seen).toMatchObject({ ttlMs: 60_000, cacheScope: 'private' });
      expect(await visitor.listResources()).toMatchObject({ resources: [{ uri: 'trail://public' }], cacheScope: 'private' });
    } finally {
      await Object.getPrototypeOf(visitor).close.call(visitor);
      await auditor.close();
    }
  });
});
