import 'reflect-metadata';
import {
  BootstrapError,
  BootstrapErrorCode,
  Inject,
  Injectable,
  Scope,
  MCP_OPTIONS,
  McpFactory,
  Module,
  type McpModuleOptions,
  type ModuleImport,
  type ModuleOptions,
  type Provider,
} from 'mcp-reflect';
import { testModule, failureOf } from '../support/bootstrap';

const appModule = (options: ModuleOptions = {}): Function => testModule('di', options);


/** A root module that imports McpModule plus whatever the test adds. */


function unknownDependency(owner: string, signature: string, index: number, name: string, module: string): string {
  return (
    `Cannot resolve dependencies of ${owner} (${signature}): the argument at index [${index}], ${name}, is not available in the ${module} context.\n\n` +
    `Potential solutions:\n` +
    `- If ${name} is a provider, add it to the providers of ${module}.\n` +
    `- If ${name} is exported from another module, import that module into ${module}.\n` +
    `- If ${name} is provided by a module that ${module} imports, add it to that module's exports.`
  );
}

interface Repository {
  find(id: string): string;
}

describe('Container', () => {
  describe('resolution', () => {
    it('injects a module’s own providers by class', async () => {
      @Injectable()
      class Clock {
        now() {
          return 42;
        }
      }
      @Injectable()
      class Scheduler {
        constructor(readonly clock: Clock) {}
      }

      const app = await McpFactory.create(appModule({ providers: [Scheduler, Clock] }));

      expect(app.get<Scheduler>(Scheduler).clock).toBe(app.get<Clock>(Clock));
      expect(app.get<Scheduler>(Scheduler).clock.now()).toBe(42);
    });

    it('injects what an imported module exports, as one singleton', async () => {
      @Injectable()
      class Database {}
      @Module({ providers: [Database], exports: [Database] })
      class DatabaseModule {}
      @Injectable()
      class Users {
        constructor(readonly db: Database) {}
      }
      @Module({ imports: [DatabaseModule], providers: [Users], exports: [Users] })
      class UsersModule {}
      @Injectable()
      class Orders {
        constructor(
          readonly db: Database,
          readonly users: Users,
        ) {}
      }

      const app = await McpFactory.create(appModule({ imports: [UsersModule, DatabaseModule], providers: [Orders] }));

      const orders = app.get<Orders>(Orders);
      expect(orders.users).toBe(app.get<Users>(Users));
      expect(orders.db).toBe(app.get<Database>(Database));
      expect(orders.users.db).toBe(orders.db);
    });

    it('sees the exports of a re-exported module', async () => {
      @Injectable()
      class Http {}
      @Module({ providers: [Http], exports: [Http] })
      class HttpModule {}
      @Module({ imports: [HttpModule], exports: [HttpModule] })
      class CoreModule {}
      @Injectable()
      class Weather {
        constructor(readonly http: Http) {}
      }

      const app = await McpFactory.create(appModule({ imports: [CoreModule], providers: [Weather] }));

      expect(app.get<Weather>(Weather).http).toBeInstanceOf(Http);
      expect(app.get<Weather>(Weather).http).toBe(app.get<Http>(Http));
    });

    it('makes the McpModule options visible to every module (global)', async () => {
      @Injectable()
      class ServerName {
        constructor(@Inject(MCP_OPTIONS) readonly options: McpModuleOptions) {}
      }
      @Module({ providers: [ServerName], exports: [ServerName] })
      class FeatureModule {}

      const app = await McpFactory.create(appModule({ imports: [FeatureModule] }));

      expect(app.get<ServerName>(ServerName).options).toMatchObject({ name: 'di', version: '1.0.0' });
    });

    it('builds useValue, useClass, useFactory (sync and async, with inject) and useExisting providers', async () => {
      abstract class Store {
        abstract get(key: string): string;
      }
      @Injectable()
      class MemoryStore extends Store {
        constructor(@Inject('PREFIX') readonly prefix: string) {
          super();
        }
        get(key: string) {
          return `${this.prefix}${key}`;
        }
      }
      @Injectable()
      class Consumer {
        constructor(
          readonly store: Store,
          @Inject('URL') readonly url: string,
          @Inject('ALIAS') readonly alias: Store,
          @Inject('ASYNC') readonly later: { url: string },
        ) {}
      }
      const providers: Provider[] = [
        Consumer,
        { provide: 'PREFIX', useValue: 'p:' },
        { provide: Store, useClass: MemoryStore },
        { provide: 'URL', useFactory: (prefix: string) => `${prefix}//host`, inject: ['PREFIX'] },
        {
          provide: 'ASYNC',
          useFactory: async (url: string) => {
            await new Promise((resolve) => setImmediate(resolve));
            return { url };
          },
          inject: ['URL'],
        },
        { provide: 'ALIAS', useExisting: Store },
      ];

      const app = await McpFactory.create(appModule({ providers }));

      const consumer = app.get<Consumer>(Consumer);
      expect(consumer.store).toBeInstanceOf(MemoryStore);
      expect(consumer.store.get('k')).toBe('p:k');
      expect(consumer.url).toBe('p://host');
      expect(consumer.alias).toBe(consumer.store);
      expect(consumer.later).toEqual({ url: 'p://host' });
      expect(app.get('ALIAS')).toBe(app.get<Store>(Store));
    });

    it('injects string tokens with @Inject()', async () => {
      @Injectable()
      class ApiClient {
        constructor(
          @Inject('API_KEY') readonly key: string,
          @Inject('RETRIES') readonly retries: number,
        ) {}
      }

      const app = await McpFactory.create(
        appModule({
          providers: [ApiClient, { provide: 'API_KEY', useValue: 'secret' }, { provide: 'RETRIES', useValue: 3 }],
        }),
      );

      expect(app.get<ApiClient>(ApiClient).key).toBe('secret');
      expect(app.get<ApiClient>(ApiClient).retries).toBe(3);
    });
  });

  describe(BootstrapErrorCode.UnknownDependency, () => {
    it('names the missing provider, its index and the module, with potential solutions', async () => {
      @Injectable()
      class Geo {}
      @Injectable()
      class Clock {}
      @Injectable()
      class Forecaster {
        constructor(
          readonly geo: Geo,
          readonly clock: Clock,
        ) {}
      }

      const error = await failureOf(appModule({ providers: [Geo, Forecaster] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Forecaster', 'Geo, ?', 1, 'Clock', 'AppModule'));
    });

    it('names a missing string token', async () => {
      @Injectable()
      class ApiClient {
        constructor(@Inject('API_KEY') readonly key: string) {}
      }

      const error = await failureOf(appModule({ providers: [ApiClient] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('ApiClient', '?', 0, `'API_KEY'`, 'AppModule'));
    });

    it('explains a dependency reflected as Object (an erased interface type)', async () => {
      @Injectable()
      class Clock {}
      @Injectable()
      class Users {
        constructor(
          readonly clock: Clock,
          readonly repository: Repository,
        ) {}
      }

      const error = await failureOf(appModule({ providers: [Clock, Users] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(
        `Cannot resolve dependencies of Users (Clock, ?): the argument at index [1] was reflected as Object, ` +
          `so there is no token to look up in the AppModule context.\n\n` +
          'Cause: its type is an interface, a union, or a type-only import (`import type`), which TypeScript erases at runtime.\n' +
          `Fix: inject it by token with @Inject(TOKEN) on the parameter and register { provide: TOKEN, useValue | useClass | useFactory } ` +
          `in AppModule, or import the class itself with a value import.`,
      );
    });

    it('explains a dependency reflected as undefined (a circular file import) and points to forwardRef', async () => {
      @Injectable()
      class Clock {}
      @Injectable()
      class Orders {
        constructor(
          readonly clock: Clock,
          readonly users: unknown,
        ) {}
      }
      // What TypeScript emits when Users' file is still loading: the class is undefined at decoration time.
      Reflect.defineMetadata('design:paramtypes', [Clock, undefined], Orders);

      const error = await failureOf(appModule({ providers: [Clock, Orders] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(
        `Cannot resolve dependencies of Orders (Clock, ?): the argument at index [1] was reflected as undefined, ` +
          `so there is no token to look up in the AppModule context.\n\n` +
          `Cause: its class was not defined yet when the decorator ran: two files import each other (a circular file import).\n` +
          `Fix: write @Inject(forwardRef(() => TheClass)) on the parameter, so the class is looked up once both files have ` +
          `loaded, or move the shared code into a third file to break the import cycle.`,
      );
    });

    it('refuses a provider that the imported module does not export', async () => {
      @Injectable()
      class Database {}
      @Module({ providers: [Database] })
      class DatabaseModule {}
      @Injectable()
      class Users {
        constructor(readonly db: Database) {}
      }

      const error = await failureOf(appModule({ imports: [DatabaseModule], providers: [Users] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Users', '?', 0, 'Database', 'AppModule'));
    });

    it('names the module in which the lookup failed', async () => {
      @Injectable()
      class Database {}
      @Injectable()
      class Users {
        constructor(readonly db: Database) {}
      }
      @Module({ providers: [Users], exports: [Users] })
      class UsersModule {}

      const error = await failureOf(appModule({ imports: [UsersModule], providers: [Database] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Users', '?', 0, 'Database', 'UsersModule'));
    });

    it('chains the causes of a nested failure with indentation', async () => {
      @Injectable()
      class Mailer {}
      @Injectable()
      class Templates {
        constructor(readonly mailer: Mailer) {}
      }
      @Injectable()
      class Notifier {
        constructor(readonly templates: Templates) {}
      }
      @Injectable()
      class Signup {
        constructor(readonly notifier: Notifier) {}
      }

      const error = await failureOf(appModule({ providers: [Signup, Notifier, Templates] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(
        `Cannot create Signup because a dependency failed. Reason:\n` +
          `    Cannot create Notifier because a dependency failed. Reason:\n` +
          `        Cannot resolve dependencies of Templates (?): the argument at index [0], Mailer, is not available in the AppModule context.\n` +
          `\n` +
          `        Potential solutions:\n` +
          `        - If Mailer is a provider, add it to the providers of AppModule.\n` +
          `        - If Mailer is exported from another module, import that module into AppModule.\n` +
          `        - If Mailer is provided by a module that AppModule imports, add it to that module's exports.`,
      );
      expect(error.cause).toBeInstanceOf(BootstrapError);
    });

    it('shows the path of a circular dependency once', async () => {
      @Injectable()
      class Left {
        constructor(@Inject('RIGHT') readonly right: unknown) {}
      }
      @Injectable()
      class Right {
        constructor(readonly left: Left) {}
      }

      const error = await failureOf(appModule({ providers: [Left, { provide: 'RIGHT', useClass: Right }] }));

      expect(error.code).toBe('CIRCULAR_DEPENDENCY');
      expect(error.message).toBe(
        `Cannot create Left: circular dependency Left -> 'RIGHT' -> Left.\n` +
          `Fix: break the cycle by moving the shared logic into a third provider, or inject lazily with ` +
          `@Inject(forwardRef(() => 'RIGHT')) in the constructor of Left (and, across two files, forwardRef on both sides: ` +
          `it is needed in the file that loads first; see docs/errors.md#circular_dependency).`,
      );
    });

    it('reports only the cycle when a provider outside it reaches it', async () => {
      @Injectable()
      class Left {
        constructor(@Inject('RIGHT') readonly right: unknown) {}
      }
      @Injectable()
      class Right {
        constructor(readonly left: Left) {}
      }
      @Injectable()
      class Root {
        constructor(readonly left: Left) {}
      }

      const error = await failureOf(appModule({ providers: [Root, Left, { provide: 'RIGHT', useClass: Right }] }));

      expect(error.code).toBe('CIRCULAR_DEPENDENCY');
      expect(error.message).toBe(
        `Cannot create Left: circular dependency Left -> 'RIGHT' -> Left.\n` +
          `Fix: break the cycle by moving the shared logic into a third provider, or inject lazily with ` +
          `@Inject(forwardRef(() => 'RIGHT')) in the constructor of Left (and, across two files, forwardRef on both sides: ` +
          `it is needed in the file that loads first; see docs/errors.md#circular_dependency).`,
      );
    });

    it('detects a cycle between transient providers instead of recursing forever', async () => {
      @Injectable({ scope: Scope.TRANSIENT })
      class Ping {
        constructor(@Inject('PONG') readonly pong: unknown) {}
      }
      @Injectable({ scope: Scope.TRANSIENT })
      class Pong {
        constructor(readonly ping: Ping) {}
      }
      @Injectable()
      class Table {
        constructor(readonly ping: Ping) {}
      }

      const error = await failureOf(appModule({ providers: [Table, Ping, { provide: 'PONG', useClass: Pong }] }));

      expect(error.code).toBe('CIRCULAR_DEPENDENCY');
      expect(error.message).toBe(
        `Cannot create Ping: circular dependency Ping -> 'PONG' -> Ping.\n` +
          `Fix: break the cycle by moving the shared logic into a third provider, or inject lazily with ` +
          `@Inject(forwardRef(() => 'PONG')) in the constructor of Ping (and, across two files, forwardRef on both sides: ` +
          `it is needed in the file that loads first; see docs/errors.md#circular_dependency).`,
      );
    });

    it('refuses a class with constructor parameters but no @Injectable()', async () => {
      @Injectable()
      class Geo {}
      class Plain {
        constructor(readonly geo: Geo) {}
      }

      const error = await failureOf(appModule({ providers: [Geo, Plain] }));

      expect(error.code).toBe('NOT_INJECTABLE');
      expect(error.message).toBe(
        `Cannot create Plain in AppModule: its constructor takes 1 parameter(s) but TypeScript emitted no types for them.\n` +
          `Fix: decorate the class with @Injectable(), and make sure "emitDecoratorMetadata" and "experimentalDecorators" are on in tsconfig.json.`,
      );
    });

    it('names the alias of a useExisting provider whose target is missing', async () => {
      const error = await failureOf(appModule({ providers: [{ provide: 'ALIAS', useExisting: 'MISSING' }] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency(`'ALIAS'`, '?', 0, `'MISSING'`, 'AppModule'));
    });
  });

  describe(BootstrapErrorCode.InvalidProvider, () => {
    it('refuses a number in providers', async () => {
      const error = await failureOf(appModule({ providers: [42 as unknown as Provider] }));

      expect(error.code).toBe('INVALID_PROVIDER');
      expect(error.message).toBe(
        `Cannot register providers[0] of AppModule: 42 is neither a class nor a { provide, useClass | useValue | useFactory | useExisting } object.\n` +
          `Fix: list classes or provider objects in @Module({ providers }).`,
      );
    });

    it('names the index and the likely cause of an undefined provider', async () => {
      @Injectable()
      class Geo {}
      const error = await failureOf(appModule({ providers: [Geo, undefined as unknown as Provider] }));

      expect(error.code).toBe('INVALID_PROVIDER');
      expect(error.message).toBe(
        `Cannot register providers[1] of AppModule: undefined is neither a class nor a { provide, useClass | useValue | useFactory | useExisting } object. ` +
          `An undefined entry usually means a circular file import: the class was not defined yet when @Module() ran.\n` +
          `Fix: list classes or provider objects in @Module({ providers }).`,
      );
    });

    it('reports a factory that throws, with its reason', async () => {
      const failure = new Error('API_KEY is not set');
      const error = await failureOf(
        appModule({
          providers: [
            {
              provide: 'CONFIG',
              useFactory: () => {
                throw failure;
              },
            },
          ],
        }),
      );

      expect(error.code).toBe('FACTORY_FAILED');
      expect(error.message).toBe(`Cannot create 'CONFIG' in AppModule: its factory threw. Reason:\n    API_KEY is not set`);
      expect(error.cause).toBe(failure);
    });

    it('reports a factory that rejects, under the dependent that needed it', async () => {
      @Injectable()
      class Weather {
        constructor(@Inject('CONFIG') readonly config: unknown) {}
      }
      const error = await failureOf(
        appModule({
          providers: [
            Weather,
            { provide: 'CONFIG', useFactory: () => Promise.reject(new Error('config file not found\nat ./config.json')) },
          ],
        }),
      );

      expect(error.code).toBe('FACTORY_FAILED');
      expect(error.message).toBe(
        `Cannot create Weather because a dependency failed. Reason:\n` +
          `    Cannot create 'CONFIG' in AppModule: its factory threw. Reason:\n` +
          `        config file not found\n` +
          `        at ./config.json`,
      );
    });
  });

  describe(BootstrapErrorCode.InvalidModule, () => {
    it('refuses undefined in imports (a circular file import)', async () => {
      const error = await failureOf(appModule({ imports: [undefined as unknown as ModuleImport] }));

      expect(error.code).toBe('INVALID_MODULE');
      expect(error.message).toBe(
        `Cannot import undefined into AppModule: it is not a class decorated with @Module() nor a dynamic module ({ module, providers, ... }).\n` +
          `Fix: decorate the class with @Module({ ... }), or check the import for a typo or a circular file import (the value is undefined then).`,
      );
    });

    it('refuses a class without @Module()', async () => {
      class NotAModule {}

      const error = await failureOf(appModule({ imports: [NotAModule] }));

      expect(error.code).toBe('INVALID_MODULE');
      expect(error.message).toBe(
        `Cannot import class NotAModule into AppModule: it is not a class decorated with @Module() nor a dynamic module ({ module, providers, ... }).\n` +
          `Fix: decorate the class with @Module({ ... }), or check the import for a typo or a circular file import (the value is undefined then).`,
      );
    });
  });
});
