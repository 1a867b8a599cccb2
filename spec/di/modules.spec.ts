import 'reflect-metadata';
import {
  Global,
  Inject,
  Injectable,
  McpModule,
  Module,
  forwardRef,
  type DynamicModule,
  type ModuleOptions,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { testModule, failureOf, trackApplications } from '../support/bootstrap';

const appModule = (options: ModuleOptions = {}): Function => testModule('modules', options);
const bootstrap = trackApplications();


/** A root module named AppModule that imports McpModule plus whatever the test adds. */



function unknownDependency(owner: string, signature: string, index: number, name: string, module: string): string {
  return (
    `Cannot resolve dependencies of ${owner} (${signature}): the argument at index [${index}], ${name}, is not available in the ${module} context.\n\n` +
    `Potential solutions:\n` +
    `- If ${name} is a provider, add it to the providers of ${module}.\n` +
    `- If ${name} is exported from another module, import that module into ${module}.\n` +
    `- If ${name} is provided by a module that ${module} imports, add it to that module's exports.`
  );
}

describe('Module graph', () => {
  describe('@Global()', () => {
    it('makes its exports visible to modules that do not import it', async () => {
      @Injectable()
      class Config {
        readonly region = 'eu';
      }
      @Global()
      @Module({ providers: [Config], exports: [Config] })
      class ConfigModule {}
      @Injectable()
      class Weather {
        constructor(readonly config: Config) {}
      }
      @Module({ providers: [Weather], exports: [Weather] })
      class WeatherModule {}
      @Injectable()
      class Forecast {
        constructor(readonly weather: Weather) {}
      }
      @Module({ imports: [WeatherModule], providers: [Forecast] })
      class ForecastModule {}

      const app = await bootstrap(appModule({ imports: [ForecastModule, ConfigModule] }));

      expect(app.get<Weather>(Weather).config).toBe(app.get<Config>(Config));
      expect(app.get<Weather>(Weather).config.region).toBe('eu');
      expect(app.get<Forecast>(Forecast).weather).toBe(app.get<Weather>(Weather));
    });

    it('does not make visible what the global module does not export', async () => {
      @Injectable()
      class Secret {}
      @Global()
      @Module({ providers: [Secret] })
      class VaultModule {}
      @Injectable()
      class Reader {
        constructor(readonly secret: Secret) {}
      }
      @Module({ providers: [Reader] })
      class ReaderModule {}

      const error = await failureOf(appModule({ imports: [VaultModule, ReaderModule] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Reader', '?', 0, 'Secret', 'ReaderModule'));
    });

    it('makes a dynamic module with global: true visible everywhere', async () => {
      const DB_URL = Symbol('DB_URL');
      @Module({})
      class DatabaseModule {
        static forRoot(url: string): DynamicModule {
          return { module: DatabaseModule, global: true, providers: [{ provide: DB_URL, useValue: url }], exports: [DB_URL] };
        }
      }
      @Injectable()
      class Users {
        constructor(@Inject(DB_URL) readonly url: string) {}
      }
      @Module({ providers: [Users], exports: [Users] })
      class UsersModule {}

      const app = await bootstrap(appModule({ imports: [DatabaseModule.forRoot('postgres://db'), UsersModule] }));

      expect(app.get<Users>(Users).url).toBe('postgres://db');
    });

    it('keeps a dynamic module without global: true local to its importers', async () => {
      const DB_URL = Symbol('DB_URL');
      @Module({})
      class DatabaseModule {
        static forRoot(url: string): DynamicModule {
          return { module: DatabaseModule, providers: [{ provide: DB_URL, useValue: url }], exports: [DB_URL] };
        }
      }
      @Injectable()
      class Users {
        constructor(@Inject(DB_URL) readonly url: string) {}
      }
      @Module({ providers: [Users], exports: [Users] })
      class UsersModule {}

      const error = await failureOf(appModule({ imports: [DatabaseModule.forRoot('postgres://db'), UsersModule] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Users', '?', 0, 'Symbol(DB_URL)', 'UsersModule'));
    });
  });

  describe('re-exports', () => {
    it('passes a module re-exported through two levels', async () => {
      @Injectable()
      class Http {
        get() {
          return 'GET';
        }
      }
      @Module({ providers: [Http], exports: [Http] })
      class HttpModule {}
      @Module({ imports: [HttpModule], exports: [HttpModule] })
      class NetworkModule {}
      @Module({ imports: [NetworkModule], exports: [NetworkModule] })
      class PlatformModule {}
      @Injectable()
      class Weather {
        constructor(readonly http: Http) {}
      }

      const app = await bootstrap(appModule({ imports: [PlatformModule], providers: [Weather] }));

      expect(app.get<Weather>(Weather).http).toBe(app.get<Http>(Http));
      expect(app.get<Weather>(Weather).http.get()).toBe('GET');
    });

    it('passes a provider token re-exported through two levels', async () => {
      @Injectable()
      class Http {}
      @Module({ providers: [Http], exports: [Http] })
      class HttpModule {}
      @Module({ imports: [HttpModule], exports: [Http] })
      class NetworkModule {}
      @Module({ imports: [NetworkModule], exports: [Http] })
      class PlatformModule {}
      @Injectable()
      class Weather {
        constructor(readonly http: Http) {}
      }

      const app = await bootstrap(appModule({ imports: [PlatformModule], providers: [Weather] }));

      expect(app.get<Weather>(Weather).http).toBe(app.get<Http>(Http));
    });

    it('passes a re-exported dynamic module', async () => {
      @Module({})
      class ConfigModule {
        static forRoot(values: Record<string, string>): DynamicModule {
          return { module: ConfigModule, providers: [{ provide: 'CONFIG', useValue: values }], exports: ['CONFIG'] };
        }
      }
      @Module({ imports: [ConfigModule.forRoot({ region: 'us' })], exports: [ConfigModule] })
      class CoreModule {}
      @Module({ imports: [CoreModule], exports: [CoreModule] })
      class SharedModule {}
      @Injectable()
      class Region {
        constructor(@Inject('CONFIG') readonly config: Record<string, string>) {}
      }

      const app = await bootstrap(appModule({ imports: [SharedModule], providers: [Region] }));

      expect(app.get<Region>(Region).config).toEqual({ region: 'us' });
    });

    it('stops at a level that does not re-export', async () => {
      @Injectable()
      class Http {}
      @Module({ providers: [Http], exports: [Http] })
      class HttpModule {}
      @Module({ imports: [HttpModule] })
      class NetworkModule {}
      @Module({ imports: [NetworkModule], exports: [NetworkModule] })
      class PlatformModule {}
      @Injectable()
      class Weather {
        constructor(readonly http: Http) {}
      }

      const error = await failureOf(appModule({ imports: [PlatformModule], providers: [Weather] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Weather', '?', 0, 'Http', 'AppModule'));
    });
  });

  describe('forwardRef between modules that import each other', () => {
    function mutualModules() {
      @Injectable()
      class Users {
        name(id: string) {
          return `user-${id}`;
        }
      }
      @Injectable()
      class OrderHistory {
        // Orders is declared below: typed structurally, injected through forwardRef.
        constructor(@Inject(forwardRef(() => Orders)) readonly orders: { count(): number }) {}
      }
      @Module({ imports: [forwardRef(() => OrdersModule)], providers: [Users, OrderHistory], exports: [Users] })
      class UsersModule {}
      @Injectable()
      class Orders {
        constructor(readonly users: Users) {}
        count() {
          return 3;
        }
      }
      @Module({ imports: [forwardRef(() => UsersModule)], providers: [Orders], exports: [Orders] })
      class OrdersModule {}
      return { Users, OrderHistory, UsersModule, Orders, OrdersModule };
    }

    it.each([
      ['UsersModule imported first', (m: ReturnType<typeof mutualModules>) => [m.UsersModule, m.OrdersModule]],
      ['OrdersModule imported first', (m: ReturnType<typeof mutualModules>) => [m.OrdersModule, m.UsersModule]],
      ['only UsersModule imported', (m: ReturnType<typeof mutualModules>) => [m.UsersModule]],
      ['only OrdersModule imported', (m: ReturnType<typeof mutualModules>) => [m.OrdersModule]],
    ])('links providers both ways (%s)', async (_order, pick) => {
      const modules = mutualModules();

      const app = await bootstrap(appModule({ imports: pick(modules) }));

      expect(app.get<InstanceType<typeof modules.Orders>>(modules.Orders).users).toBe(app.get<InstanceType<typeof modules.Users>>(modules.Users));
      expect(app.get<InstanceType<typeof modules.OrderHistory>>(modules.OrderHistory).orders).toBe(app.get<InstanceType<typeof modules.Orders>>(modules.Orders));
      expect(app.get<InstanceType<typeof modules.OrderHistory>>(modules.OrderHistory).orders.count()).toBe(3);
      expect(app.get<InstanceType<typeof modules.Orders>>(modules.Orders).users.name('1')).toBe('user-1');
    });
  });

  describe('UNKNOWN_DEPENDENCY', () => {
    it('refuses a provider that an imported module declares but does not export', async () => {
      @Injectable()
      class Mailer {}
      @Injectable()
      class Templates {}
      @Module({ providers: [Mailer, Templates], exports: [Templates] })
      class MailModule {}
      @Injectable()
      class Signup {
        constructor(
          readonly templates: Templates,
          readonly mailer: Mailer,
        ) {}
      }
      @Module({ imports: [MailModule], providers: [Signup] })
      class AccountsModule {}

      const error = await failureOf(appModule({ imports: [AccountsModule] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Signup', 'Templates, ?', 1, 'Mailer', 'AccountsModule'));
    });

    it('does not see what a sibling module exports without importing it', async () => {
      @Injectable()
      class Clock {}
      @Module({ providers: [Clock], exports: [Clock] })
      class ClockModule {}
      @Injectable()
      class Scheduler {
        constructor(readonly clock: Clock) {}
      }
      @Module({ providers: [Scheduler] })
      class SchedulerModule {}

      const error = await failureOf(appModule({ imports: [ClockModule, SchedulerModule] }));

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(unknownDependency('Scheduler', '?', 0, 'Clock', 'SchedulerModule'));
    });
  });

  describe('INVALID_EXPORT', () => {
    it('reports a token that two mutually importing modules export but neither provides (no endless lookup)', async () => {
      @Module({ imports: [forwardRef(() => RightModule)], exports: ['SHARED'] })
      class LeftModule {}
      @Module({ imports: [forwardRef(() => LeftModule)], exports: ['SHARED'] })
      class RightModule {}

      const error = await failureOf(appModule({ imports: [LeftModule] }));

      expect(error.code).toBe('INVALID_EXPORT');
      expect(error.message).toBe(
        `Cannot export 'SHARED' from LeftModule: it is neither a provider of LeftModule nor exported by a module that LeftModule imports.\n` +
          `Fix: add 'SHARED' to the providers of LeftModule, import the module that provides it, or remove it from the exports.`,
      );
    });
  });

  describe('DUPLICATE_PROVIDER', () => {
    function duplicateMessage(name: string, module: string): string {
      return (
        `Cannot register ${name} twice in ${module}: two providers of the module use the same token, so one would silently replace the other.\n` +
        `Fix: remove one of them, or give them different tokens ({ provide: 'OTHER_TOKEN', ... }).`
      );
    }

    it('refuses two providers with the same string token in one module', async () => {
      @Module({ providers: [{ provide: 'API_URL', useValue: 'a' }, { provide: 'API_URL', useFactory: () => 'b' }] })
      class ApiModule {}

      const error = await failureOf(appModule({ imports: [ApiModule] }));

      expect(error.code).toBe('DUPLICATE_PROVIDER');
      expect(error.message).toBe(duplicateMessage(`'API_URL'`, 'ApiModule'));
    });

    it('refuses a class and a provider object for the same class', async () => {
      @Injectable()
      class Geo {}
      @Module({ providers: [Geo, { provide: Geo, useValue: {} }] })
      class GeoModule {}

      const error = await failureOf(appModule({ imports: [GeoModule] }));

      expect(error.code).toBe('DUPLICATE_PROVIDER');
      expect(error.message).toBe(duplicateMessage('Geo', 'GeoModule'));
    });

    it('allows the same token in two different modules, each module\'s providers getting its own', async () => {
      @Injectable()
      class ReaderA {
        constructor(@Inject('NAME') readonly name: string) {}
      }
      @Injectable()
      class ReaderB {
        constructor(@Inject('NAME') readonly name: string) {}
      }
      @Module({ providers: [{ provide: 'NAME', useValue: 'a' }, ReaderA], exports: [ReaderA] })
      class A {}
      @Module({ providers: [{ provide: 'NAME', useFactory: () => 'b' }, ReaderB], exports: [ReaderB] })
      class B {}

      const app = await bootstrap(appModule({ imports: [A, B] }));

      expect([app.get<ReaderA>(ReaderA).name, app.get<ReaderB>(ReaderB).name]).toEqual(['a', 'b']);
    });
  });

  describe('McpModule.forRootAsync()', () => {
    it('builds the server options from an injected provider; a real client sees the name', async () => {
      @Injectable()
      class ConfigService {
        readonly name = 'from-config';
      }
      @Module({ providers: [ConfigService], exports: [ConfigService] })
      class ConfigModule {}
      @Injectable()
      class Health {}
      @Module({
        imports: [
          McpModule.forRootAsync({
            imports: [ConfigModule],
            inject: [ConfigService],
            useFactory: async (c: ConfigService) => {
              await new Promise((resolve) => setTimeout(resolve, 5));
              return { name: c.name, version: '1.0.0' };
            },
          }),
        ],
        providers: [Health],
      })
      class AppModule {}

      const client = await createTestClient(AppModule);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: 'from-config', version: '1.0.0' });
      } finally {
        await client.close();
      }
    });

    it('reports a missing factory dependency in McpModule', async () => {
      @Injectable()
      class ConfigService {}
      @Module({
        imports: [McpModule.forRootAsync({ inject: [ConfigService], useFactory: () => ({ name: 'x', version: '1.0.0' }) })],
      })
      class AppModule {}

      const error = await failureOf(AppModule);

      expect(error.code).toBe('UNKNOWN_DEPENDENCY');
      expect(error.message).toBe(
        unknownDependency('the factory of Symbol(mcp-reflect:options)', '?', 0, 'ConfigService', 'McpModule'),
      );
    });
  });
});
