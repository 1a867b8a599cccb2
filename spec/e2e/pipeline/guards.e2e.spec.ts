import 'reflect-metadata';
import { ProtocolErrorCode } from '@modelcontextprotocol/server';
import {
  APP_GUARD,
  Complete,
  Injectable,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Reflector,
  Resource,
  ResourceTemplate,
  Scope,
  SetMetadata,
  Tool,
  ToolError,
  UseGuards,
  type CanActivate,
  type ExecutionContext,
  type McpApplication,
} from 'mcp-reflect';
import type { Client } from '@modelcontextprotocol/client';
import { answer, connectAs } from '../../support/clients';
import { buildApplication } from '../../../lib/host/mcp-factory';

/** Who may use what: the client's name is its role in these specs. */
const Roles = Reflector.createDecorator<string[]>();

@Injectable()
class Directory {
  readonly checks: string[] = [];
  roleOf(context: ExecutionContext): string {
    return context.context.client.name ?? 'anonymous';
  }
}

/** A guard with constructor injection (a service and the Reflector), reading metadata from method and class. */
@Injectable()
class RoleGuard implements CanActivate {
  constructor(
    private readonly directory: Directory,
    private readonly reflector: Reflector,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const roles = this.reflector.getAllAndOverride(Roles, [context.getHandler(), context.getClass()]) ?? [];
    this.directory.checks.push(`${context.phase}:${context.method}:${context.name}`);
    return roles.length === 0 || roles.includes(this.directory.roleOf(context));
  }
}

/** Refuses with a message instead of hiding. */
class QuotaGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.phase === 'list') return true;
    if ((context.switchToRpc().getData<{ n?: number }>()?.n ?? 0) > 10) throw new ToolError('Quota exceeded: ask for at most 10 items.');
    return true;
  }
}

@Injectable()
@UseGuards(RoleGuard)
class Admin {
  @Tool()
  open(): string {
    return 'open to all';
  }

  @Roles(['admin'])
  @Tool()
  purge(): string {
    return 'purged';
  }

  @Roles(['admin'])
  @Resource('secret://plans')
  plans(): string {
    return 'the plans';
  }

  @Roles(['admin'])
  @ResourceTemplate('secret://users/{id}')
  user(@Param('id') id: string): string {
    return `user ${id}`;
  }

  @Resource('public://readme')
  readme(): string {
    return 'readme';
  }

  @Roles(['admin'])
  @Prompt()
  audit(@Param('topic') topic: string): string {
    return `Audit ${topic}`;
  }

  @Roles(['admin'])
  @Complete({ prompt: 'audit', argument: 'topic' })
  topics(value: string): string[] {
    return ['billing', 'access'].filter((t) => t.startsWith(value));
  }

  @UseGuards(new QuotaGuard())
  @Tool()
  items(@Param() n: number): number[] {
    return Array.from({ length: n }, (_, i) => i);
  }
}

@Injectable()
class Plain {
  @Tool()
  echo(@Param() text: string): string {
    return text;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'guards', version: '1.0.0' })], providers: [Directory, Admin, Plain] })
class GuardsModule {}

describe('guards', () => {
  let app: McpApplication;
  let admin: Client;
  let guest: Client;
  beforeAll(async () => {
    app = await McpFactory.create(GuardsModule);
    admin = await connectAs(app, 'admin');
    guest = await connectAs(app, 'guest');
  });
  afterAll(() => app.close());

  it('shows each caller the tools its guards allow, and keeps the unguarded ones', async () => {
    expect((await admin.listTools()).tools.map((t) => t.name)).toEqual(['open', 'purge', 'items', 'echo']);
    expect((await guest.listTools()).tools.map((t) => t.name)).toEqual(['open', 'items', 'echo']);
  });

  it('answers a denied tool as an unknown one', async () => {
    expect(answer(await admin.callTool({ name: 'purge', arguments: {} }))).toEqual({ text: 'purged', isError: false });
    await expect(guest.callTool({ name: 'purge', arguments: {} })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown tool: purge'),
    });
  });

  it('answers a guard that throws with its message', async () => {
    expect(answer(await guest.callTool({ name: 'items', arguments: { n: 11 } }))).toEqual({
      text: 'Quota exceeded: ask for at most 10 items.',
      isError: true,
    });
    expect(answer(await guest.callTool({ name: 'items', arguments: { n: 2 } }))).toMatchObject({ isError: false });
  });

  it('filters resources, templates and prompts, and answers denied reads and gets as unknown', async () => {
    expect((await admin.listResources()).resources.map((r) => r.uri)).toEqual(['secret://plans', 'public://readme']);
    expect((await guest.listResources()).resources.map((r) => r.uri)).toEqual(['public://readme']);
    expect((await admin.listResourceTemplates()).resourceTemplates.map((t) => t.uriTemplate)).toEqual(['secret://users/{id}']);
    expect((await guest.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await admin.listPrompts()).prompts.map((p) => p.name)).toEqual(['audit']);
    expect((await guest.listPrompts()).prompts).toEqual([]);

    expect((await admin.readResource({ uri: 'secret://users/7' })).contents).toEqual([{ uri: 'secret://users/7', mimeType: 'text/plain', text: 'user 7' }]);
    await expect(guest.readResource({ uri: 'secret://plans' })).rejects.toMatchObject({ message: expect.stringContaining('Resource not found: secret://plans') });
    await expect(guest.readResource({ uri: 'secret://users/7' })).rejects.toMatchObject({ data: { uri: 'secret://users/7' } });
    await expect(guest.getPrompt({ name: 'audit', arguments: { topic: 'x' } })).rejects.toMatchObject({
      code: ProtocolErrorCode.InvalidParams,
      message: expect.stringContaining('Unknown prompt: audit'),
    });
    expect((await admin.getPrompt({ name: 'audit', arguments: { topic: 'x' } })).messages).toHaveLength(1);
  });

  it('guards completers: a denied caller gets no values', async () => {
    const ask = (client: Client) => client.complete({ ref: { type: 'ref/prompt', name: 'audit' }, argument: { name: 'topic', value: 'b' } });
    expect((await ask(admin)).completion).toEqual({ values: ['billing'], total: 1, hasMore: false });
    expect((await ask(guest)).completion.values).toEqual([]);
  });

  it('tells a guard whether it is deciding a list or a call', async () => {
    const directory = app.get(Directory);
    directory.checks.length = 0;
    await guest.listTools();
    await admin.callTool({ name: 'purge', arguments: {} });
    expect(directory.checks).toEqual([
      'list:tools/list:open',
      'list:tools/list:purge',
      'list:tools/list:items',
      'call:tools/call:purge',
    ]);
  });

  it('keeps the precomputed list when no component is guarded', async () => {
    const { app: plain, registries } = await buildApplication(
      (() => {
        @Module({ imports: [McpModule.forRoot({ name: 'plain', version: '1.0.0' })], providers: [Plain] })
        class PlainModule {}
        return PlainModule;
      })(),
    );
    const client = await connectAs(plain, 'anyone');
    const first = await client.listTools();
    expect(first.tools.map((t) => t.name)).toEqual(['echo']);
    expect(registries.tools.get('echo')!.pipeline.guarded).toBe(false);
    await plain.close();
  });
});

describe('global and request-scoped guards', () => {
  const seen: string[] = [];

  @Injectable({ scope: Scope.REQUEST })
  class RequestGuard implements CanActivate {
    private static made = 0;
    readonly id = ++RequestGuard.made;
    canActivate(context: ExecutionContext): boolean {
      seen.push(`${this.id}:${context.phase}:${context.name}`);
      return context.context.client.name !== 'blocked';
    }
  }

  class NoBetaGuard implements CanActivate {
    canActivate(context: ExecutionContext): boolean {
      return context.name !== 'beta';
    }
  }

  @Injectable()
  class Letters {
    @Tool()
    alpha(): string {
      return 'a';
    }
    @Tool()
    beta(): string {
      return 'b';
    }
    @Tool()
    gamma(): string {
      return 'c';
    }
  }

  @Module({
    imports: [McpModule.forRoot({ name: 'global', version: '1.0.0', guards: [NoBetaGuard] })],
    providers: [Letters, { provide: APP_GUARD, useClass: RequestGuard }],
  })
  class GlobalModule {}

  it('runs forRoot guards and APP_GUARD providers on every component; a request-scoped guard is built per request', async () => {
    const app = await McpFactory.create(GlobalModule);
    try {
      const ok = await connectAs(app, 'ok');
      const blocked = await connectAs(app, 'blocked');
      seen.length = 0;
      expect((await ok.listTools()).tools.map((t) => t.name)).toEqual(['alpha', 'gamma']);
      // forRoot guards run before APP_GUARD providers (beta never reaches the request guard), and one request
      // scope serves the whole list: one instance for every check.
      expect(seen.map((line) => line.replace(/^\d+/, 'N'))).toEqual(['N:list:alpha', 'N:list:gamma']);
      expect(new Set(seen.map((line) => line.split(':')[0])).size).toBe(1);
      expect((await blocked.listTools()).tools).toEqual([]);
      seen.length = 0;
      expect(answer(await ok.callTool({ name: 'alpha', arguments: {} }))).toEqual({ text: 'a', isError: false });
      expect(answer(await ok.callTool({ name: 'alpha', arguments: {} }))).toEqual({ text: 'a', isError: false });
      const ids = seen.map((line) => line.split(':')[0]);
      expect(new Set(ids).size).toBe(2);
      await expect(ok.callTool({ name: 'beta', arguments: {} })).rejects.toMatchObject({ message: expect.stringContaining('Unknown tool: beta') });
    } finally {
      await app.close();
    }
  });

  it('leaves SetMetadata on the handler for the Reflector', () => {
    class Host {
      @SetMetadata('level', 3)
      method(): void {}
    }
    expect(new Reflector().get('level', Host.prototype.method)).toBe(3);
    expect(new Reflector().getAllAndMerge('tags', [])).toBeUndefined();
  });
});

describe("guardDenial: 'refuse'", () => {
  const closed: CanActivate = { canActivate: (context) => context.phase === 'list' };

  @Injectable()
  class Locked {
    @UseGuards(closed)
    @Tool()
    locked(): string {
      return 'never';
    }
    @UseGuards(closed)
    @Prompt()
    secret(): string {
      return 'never';
    }
  }

  @Module({ imports: [McpModule.forRoot({ name: 'refuse', version: '1.0.0', guardDenial: 'refuse' })], providers: [Locked] })
  class RefuseModule {}

  it('answers a denied call with an access-denied error instead of hiding the component', async () => {
    const app = await McpFactory.create(RefuseModule);
    try {
      const client = await connectAs(app, 'anyone');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['locked']);
      expect(answer(await client.callTool({ name: 'locked', arguments: {} }))).toEqual({
        text: "Access denied: the tool 'locked' is not available to this caller.",
        isError: true,
      });
      await expect(client.getPrompt({ name: 'secret' })).rejects.toMatchObject({
        code: -32603,
        message: expect.stringContaining("Access denied: the prompt 'secret' is not available to this caller."),
      });
    } finally {
      await app.close();
    }
  });
});

describe('a guard that throws while a list is decided', () => {
  const warned: string[] = [];
  const broken: CanActivate = {
    canActivate: (context) => {
      if (context.phase === 'list') throw new TypeError('cannot read the role');
      return true;
    },
  };

  @Injectable()
  class Fragile {
    @UseGuards(broken)
    @Tool()
    fragile(): string {
      return 'ok';
    }
    @Tool()
    sturdy(): string {
      return 'ok';
    }
  }

  @Module({
    imports: [McpModule.forRoot({ name: 'fragile', version: '1.0.0', logger: { error() {}, warn: (message) => void warned.push(message) } })],
    providers: [Fragile],
  })
  class FragileModule {}

  it('leaves the component out and says why in the server log', async () => {
    const app = await McpFactory.create(FragileModule);
    try {
      const client = await connectAs(app, 'anyone');
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['sturdy']);
      expect(warned).toEqual(["A guard of the tool 'fragile' threw during tools/list, so the list leaves it out: cannot read the role"]);
    } finally {
      await app.close();
    }
  });
});
