import 'reflect-metadata';
import { Contains, IsString } from 'class-validator';
import {
  Args,
  BootstrapErrorCode,
  Context,
  CONTEXT,
  Inject,
  Injectable,
  McpReflectError,
  Module,
  Optional,
  Param,
  Prompt,
  Scope,
  Tool,
  UseFilters,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CanActivate,
  type ExecutionContext,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { failureOf, testModule } from '../../support/bootstrap';
import { answer } from '../../support/clients';
import { Arrivals, roundTrip } from '../../support/waiting';
import { buildApplication } from '../../../lib/host/mcp-factory';

describe('the explorer', () => {
  it('serves the tools of a request-scoped factory provided under its class', async () => {
    class Greeter {
      constructor(private readonly requestId: string | number) {}
      @Tool()
      hello(): string {
        return `hello from request ${String(this.requestId)}`;
      }
    }
    const client = await createTestClient(
      testModule('factory', {
        providers: [{ provide: Greeter, useFactory: (context: Context) => new Greeter(context.requestId), inject: [CONTEXT], scope: Scope.REQUEST }],
      }),
    );
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello']);
      expect(answer(await client.callTool({ name: 'hello', arguments: {} })).text).toMatch(/^hello from request \d+$/);
    } finally {
      await client.close();
    }
  });

  it('serves the tools of a transient factory provided under its class, with one instance', async () => {
    let made = 0;
    class Counter {
      readonly id = ++made;
      @Tool()
      id_(): number {
        return this.id;
      }
    }
    const client = await createTestClient(testModule('transient', { providers: [{ provide: Counter, useFactory: () => new Counter(), scope: Scope.TRANSIENT }] }));
    try {
      expect(answer(await client.callTool({ name: 'id_', arguments: {} })).text).toBe(answer(await client.callTool({ name: 'id_', arguments: {} })).text);
    } finally {
      await client.close();
    }
  });

  it('fails loudly when a provider under a component class gives something else', async () => {
    class Reports {
      @Tool()
      report(): string {
        return 'r';
      }
    }
    const error = await failureOf(testModule('wrong', { providers: [{ provide: Reports, useValue: { report: () => 'fake' } }] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidProvider);
    expect(error.message).toBe(
      'Cannot serve the components of Reports (provider in AppModule): its provider gave an instance of Object, not an instance of Reports.\n' +
        'Fix: make the factory return an instance of Reports, or provide the class itself (useClass).',
    );
  });
});

describe('enhancers at bootstrap', () => {
  it('names the class and method an enhancer without its method decorates', async () => {
    class NotAGuard {
      check(): boolean {
        return true;
      }
    }
    @Injectable()
    class Tools {
      @UseGuards(NotAGuard as never)
      @Tool()
      run(): string {
        return 'ran';
      }
    }
    const error = await failureOf(testModule('errors', { providers: [Tools] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidEnhancer);
    expect(error.message).toBe(
      'Cannot use class NotAGuard as a guard (@UseGuards() entry #0 on Tools.run): it has no canActivate(context) method.\n' +
        'Fix: implement canActivate(context) in it, or give it where guards are expected.',
    );
  });

  it.each([
    ['interceptors', UseInterceptors, 'an interceptor', 'intercept(context, next)', 'UseInterceptors'],
    ['pipes', UsePipes, 'a pipe', 'transform(value, metadata)', 'UsePipes'],
    ['filters', UseFilters, 'an exception filter', 'catch(exception, host)', 'UseFilters'],
  ] as const)('refuses %s that are neither a class nor an object (at class level)', async (_kind, decorator, what, signature, name) => {
    const enhance = decorator as (...items: unknown[]) => ClassDecorator;
    @enhance(undefined)
    @Injectable()
    class Tools {
      @Tool()
      run(): string {
        return 'ran';
      }
    }
    const error = await failureOf(testModule('errors', { providers: [Tools] }));
    expect(error.code).toBe(BootstrapErrorCode.InvalidEnhancer);
    expect(error.message).toBe(
      `Cannot use undefined as ${what} (@${name}() entry #0 on class Tools (for Tools.run)): ${what} is a class (built by the container) or an object with ${signature}.\n` +
        'Cause: undefined here usually means a circular import: the class was not defined yet when the decorator ran.\n' +
        `Fix: pass the class itself, e.g. @${name}(MyClass), or an instance of it.`,
    );
  });

  it('injects a guard from the module of the class it guards', async () => {
    @Injectable()
    class Policy {
      allows = (name: string) => name !== 'blocked';
    }
    @Injectable()
    class PolicyGuard implements CanActivate {
      constructor(private readonly policy: Policy) {}
      canActivate(context: { name: string }): boolean {
        return this.policy.allows(context.name);
      }
    }
    @Injectable()
    @UseGuards(PolicyGuard)
    class Tools {
      @Tool()
      open(): string {
        return 'open';
      }
      @Tool()
      blocked(): string {
        return 'blocked';
      }
    }
    @Module({ providers: [Policy, Tools] })
    class FeatureModule {}
    const client = await createTestClient(testModule('di', { imports: [FeatureModule] }));
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['open']);
    } finally {
      await client.close();
    }
  });
});

describe('inherited constructor metadata', () => {
  it('keeps the parent constructor @Inject() and @Optional() marks for a subclass without its own constructor', async () => {
    @Injectable()
    class Base {
      constructor(
        @Inject('GREETING') readonly greeting: string,
        @Optional() @Inject('MISSING') readonly missing?: string,
      ) {}
    }
    @Injectable()
    class Child extends Base {
      @Tool()
      greet(): string {
        return `${this.greeting} (${String(this.missing)})`;
      }
    }
    const client = await createTestClient(testModule('inherit', { providers: [{ provide: 'GREETING', useValue: 'hello' }, Child] }));
    try {
      expect(answer(await client.callTool({ name: 'greet', arguments: {} })).text).toBe('hello (undefined)');
    } finally {
      await client.close();
    }
  });
});

describe('runtime additions', () => {
  @Injectable()
  class Core {
    @Tool()
    first(): string {
      return 'first';
    }
  }

  it('add nothing when one component fails, and send one list_changed for several', async () => {
    const client = await createTestClient(testModule('atomic', { providers: [Core] }));
    try {
      const changes = new Arrivals<true>();
      client.setNotificationHandler('notifications/tools/list_changed', () => changes.push(true));
      class Broken {
        @Tool()
        good(): string {
          return 'good';
        }
        @Tool({ name: 'first' })
        clash(): string {
          return 'clash';
        }
      }
      expect(() => client.app.tools.add(new Broken())).toThrow(McpReflectError);
      expect(client.app.tools.names()).toEqual(['first']);

      class Several {
        @Tool()
        one(): string {
          return '1';
        }
        @Tool()
        two(): string {
          return '2';
        }
        @Prompt()
        three(@Param('x') x: string): string {
          return x;
        }
      }
      client.app.tools.add(new Several());
      await changes.until(1);
      await roundTrip(client); // a second list_changed would have arrived before this answer
      expect(changes.length).toBe(1);
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['first', 'one', 'two']);
      expect(client.app.prompts.names()).toEqual(['three']);
    } finally {
      await client.close();
    }
  });
});

describe('the compiled call paths', () => {
  it('keep a plain tool synchronous, check class-validator rules at call time without a Context, and ask only a guarded tool\'s guard', async () => {
    const asked: string[] = [];
    class Guard implements CanActivate {
      canActivate(execution: ExecutionContext): boolean {
        asked.push(execution.getHandler().name);
        return true;
      }
    }
    class Named {
      @IsString() @Contains('x') name!: string;
    }
    @Injectable()
    class Tools {
      @Tool()
      plain(@Param() n: number): number {
        return n;
      }
      @Tool()
      dto(@Args() named: Named): string {
        return named.name;
      }
      @UseGuards(Guard)
      @Tool()
      guarded(@Param() n: number): number {
        return n;
      }
    }
    const { app, registries } = await buildApplication(testModule('stages', { providers: [Tools] }));
    const client = await createTestClient(app);
    try {
      // The plain tool answers synchronously: no promise of the library's own.
      expect(registries.tools.get('plain')!.pipeline.call({ n: 2 }, undefined, undefined)).toEqual({ content: [{ type: 'text', text: '2' }] });
      // class-validator rules JSON Schema cannot say are checked at call time, without a Context: the server
      // does not declare logging for them, and the call is not wrapped for client input.
      const dto = registries.tools.get('dto')!.pipeline;
      expect([dto.takesContext, dto.needsChannel]).toEqual([false, false]);
      const refused = answer(await client.callTool({ name: 'dto', arguments: { name: 'abc' } }));
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain('name must contain a x string');
      expect(answer(await client.callTool({ name: 'dto', arguments: { name: 'xyz' } }))).toEqual({ text: 'xyz', isError: false });
      // The guard runs for its own tool only, and with a Context.
      expect(registries.tools.get('guarded')!.pipeline.takesContext).toBe(true);
      expect(answer(await client.callTool({ name: 'plain', arguments: { n: 1 } })).text).toBe('1');
      expect(asked).toEqual([]);
      expect(answer(await client.callTool({ name: 'guarded', arguments: { n: 3 } })).text).toBe('3');
      expect(asked).toEqual(['guarded']);
    } finally {
      await client.close();
    }
  });
});
