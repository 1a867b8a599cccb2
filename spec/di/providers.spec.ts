import 'reflect-metadata';
import {
  Inject,
  Injectable,
  McpReflectError,
  Module,
  ModuleRef,
  Optional,
  Scope,
  forwardRef,
  type ModuleOptions,
  type Provider,
} from 'mcp-reflect';
import { testModule, failureOf, trackApplications } from '../support/bootstrap';

const appModule = (options: ModuleOptions = {}): Function => testModule('providers', options);
const bootstrap = trackApplications();


/** A root module named AppModule that imports McpModule plus whatever the test adds. */



function circularMessage(path: string[]): string {
  return (
    `Cannot create ${path[0]}: circular dependency ${path.join(' -> ')}.\n` +
    `Fix: break the cycle by moving the shared logic into a third provider, or inject lazily with ` +
    `@Inject(forwardRef(() => ${path[1]})) in the constructor of ${path[0]} (and, across two files, forwardRef on both sides: ` +
    `it is needed in the file that loads first; see docs/errors.md#circular_dependency).`
  );
}

interface UsersApi {
  label(): string;
  ordersOf(id: string): string;
}

describe('Provider forms (resolved through app.get())', () => {
  it('builds a plain class provider once, as a singleton', async () => {
    let built = 0;
    @Injectable()
    class Clock {
      constructor() {
        built++;
      }
      now() {
        return 1700000000;
      }
    }

    const app = await bootstrap(appModule({ providers: [Clock] }));

    expect(app.get<Clock>(Clock)).toBeInstanceOf(Clock);
    expect(app.get<Clock>(Clock).now()).toBe(1700000000);
    expect(app.get<Clock>(Clock)).toBe(app.get<Clock>(Clock));
    expect(built).toBe(1);
  });

  it('builds useClass under the token, with the implementation’s own dependencies injected', async () => {
    abstract class Storage {
      abstract read(key: string): string;
    }
    @Injectable()
    class Prefix {
      readonly value = 'mem:';
    }
    @Injectable()
    class MemoryStorage extends Storage {
      constructor(readonly prefix: Prefix) {
        super();
      }
      read(key: string) {
        return this.prefix.value + key;
      }
    }

    const app = await bootstrap(appModule({ providers: [Prefix, { provide: Storage, useClass: MemoryStorage }] }));

    expect(app.get<Storage>(Storage)).toBeInstanceOf(MemoryStorage);
    expect(app.get<Storage>(Storage).read('a')).toBe('mem:a');
    expect((app.get<Storage>(Storage) as MemoryStorage).prefix).toBe(app.get<Prefix>(Prefix));
  });

  it('provides useValue as is (same reference, falsy values included)', async () => {
    const config = { url: 'https://api.example.com' };

    const app = await bootstrap(
      appModule({
        providers: [
          { provide: 'CONFIG', useValue: config },
          { provide: 'ZERO', useValue: 0 },
          { provide: 'EMPTY', useValue: '' },
          { provide: 'NO', useValue: false },
        ],
      }),
    );

    expect(app.get('CONFIG')).toBe(config);
    expect(app.get('ZERO')).toBe(0);
    expect(app.get('EMPTY')).toBe('');
    expect(app.get('NO')).toBe(false);
  });

  it('returns a useValue of null or undefined as provided (it is not a missing provider)', async () => {
    const app = await bootstrap(
      appModule({ providers: [{ provide: 'NOTHING', useValue: null }, { provide: 'UNSET', useValue: undefined }] }),
    );

    expect(app.get('NOTHING')).toBeNull();
    expect(app.get('UNSET')).toBeUndefined();
  });

  it('runs a sync useFactory once with its inject list, in order', async () => {
    const factory = jest.fn((host: string, port: number) => `${host}:${port}`);

    const app = await bootstrap(
      appModule({
        providers: [
          { provide: 'HOST', useValue: 'localhost' },
          { provide: 'PORT', useValue: 8080 },
          { provide: 'ADDRESS', useFactory: factory, inject: ['HOST', 'PORT'] },
        ],
      }),
    );

    expect(app.get('ADDRESS')).toBe('localhost:8080');
    expect(factory).toHaveBeenCalledTimes(1);
    expect(factory).toHaveBeenCalledWith('localhost', 8080);
  });

  it('awaits an async useFactory at bootstrap, and injects its resolved value into a class', async () => {
    @Injectable()
    class Settings {
      readonly retries = 3;
    }
    @Injectable()
    class Client {
      constructor(@Inject('CONNECTION') readonly connection: { retries: number; open: boolean }) {}
    }

    const app = await bootstrap(
      appModule({
        providers: [
          Client,
          Settings,
          {
            provide: 'CONNECTION',
            useFactory: async (settings: Settings) => {
              await new Promise((resolve) => setTimeout(resolve, 5));
              return { retries: settings.retries, open: true };
            },
            inject: [Settings],
          },
        ],
      }),
    );

    expect(app.get('CONNECTION')).toEqual({ retries: 3, open: true });
    expect(app.get<Client>(Client).connection).toBe(app.get('CONNECTION'));
  });

  it('passes undefined for a missing { token, optional: true } factory argument', async () => {
    const app = await bootstrap(
      appModule({
        providers: [
          { provide: 'NAME', useValue: 'svc' },
          {
            provide: 'LABEL',
            useFactory: (name: string, suffix?: string) => ({ name, suffix }),
            inject: ['NAME', { token: 'SUFFIX', optional: true }],
          },
        ],
      }),
    );

    expect(app.get('LABEL')).toEqual({ name: 'svc', suffix: undefined });
  });

  it('passes the provided value for a { token, optional: true } factory argument that exists', async () => {
    const app = await bootstrap(
      appModule({
        providers: [
          { provide: 'SUFFIX', useValue: '-v2' },
          {
            provide: 'LABEL',
            useFactory: async (suffix?: string) => `label${suffix ?? ''}`,
            inject: [{ token: 'SUFFIX', optional: true }],
          },
        ],
      }),
    );

    expect(app.get('LABEL')).toBe('label-v2');
  });

  it('makes useExisting an alias of the same instance as its target', async () => {
    @Injectable()
    class Logger {}
    const LOGGER = Symbol('LOGGER');

    const app = await bootstrap(
      appModule({ providers: [Logger, { provide: 'ALIAS', useExisting: Logger }, { provide: LOGGER, useExisting: 'ALIAS' }] }),
    );

    expect(app.get('ALIAS')).toBe(app.get<Logger>(Logger));
    expect(app.get(LOGGER)).toBe(app.get<Logger>(Logger));
  });

  it('resolves string and symbol tokens, injected with @Inject(token)', async () => {
    const API_KEY = Symbol('API_KEY');
    @Injectable()
    class ApiClient {
      constructor(
        @Inject('BASE_URL') readonly baseUrl: string,
        @Inject(API_KEY) readonly apiKey: string,
      ) {}
    }

    const app = await bootstrap(
      appModule({ providers: [ApiClient, { provide: 'BASE_URL', useValue: 'https://x.test' }, { provide: API_KEY, useValue: 'k-1' }] }),
    );

    expect(app.get('BASE_URL')).toBe('https://x.test');
    expect(app.get(API_KEY)).toBe('k-1');
    expect(app.get<ApiClient>(ApiClient).baseUrl).toBe('https://x.test');
    expect(app.get<ApiClient>(ApiClient).apiKey).toBe('k-1');
  });

  it('lets @Inject(Class) override the reflected type of a parameter', async () => {
    @Injectable()
    class Real {}
    @Injectable()
    class Fake {}
    @Injectable()
    class Consumer {
      constructor(@Inject(Fake) readonly dep: Real) {}
    }

    const app = await bootstrap(appModule({ providers: [Consumer, Real, Fake] }));

    expect(app.get<Consumer>(Consumer).dep).toBe(app.get<Fake>(Fake));
  });

  it('tells app.get() of an unknown token that nothing provides it (PROVIDER_NOT_FOUND)', async () => {
    const app = await bootstrap(appModule());

    let error: unknown;
    try {
      app.get('NOPE');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpReflectError);
    expect((error as McpReflectError).code).toBe('PROVIDER_NOT_FOUND');
    expect((error as McpReflectError).message).toBe(
      `Cannot get 'NOPE': no module of the application provides it.\n` +
        `Fix: add it to the providers of a module in the application's module graph.`,
    );
  });

  describe('@Optional()', () => {
    @Injectable()
    class Cache {}

    @Injectable()
    class Reader {
      constructor(
        @Optional() @Inject('CACHE_TTL') readonly ttl: number | undefined,
        @Optional() readonly cache: Cache,
      ) {}
    }

    it('injects undefined when the dependency is missing', async () => {
      const app = await bootstrap(appModule({ providers: [Reader] }));

      expect(app.get<Reader>(Reader).ttl).toBeUndefined();
      expect(app.get<Reader>(Reader).cache).toBeUndefined();
    });

    it('injects the provider when it is present', async () => {
      const app = await bootstrap(appModule({ providers: [Reader, Cache, { provide: 'CACHE_TTL', useValue: 60 }] }));

      expect(app.get<Reader>(Reader).ttl).toBe(60);
      expect(app.get<Reader>(Reader).cache).toBe(app.get<Cache>(Cache));
    });
  });

  describe('forwardRef between two classes that inject each other', () => {
    function mutualPair() {
      @Injectable()
      class Orders {
        // Typed by an interface: `Users` as the type would be read (TDZ) before its class is defined.
        constructor(@Inject(forwardRef(() => Users)) readonly users: UsersApi) {}
        label() {
          return 'orders';
        }
        ownerOf(id: string) {
          return `${this.users.label()}:${id}`;
        }
      }
      @Injectable()
      class Users {
        constructor(@Inject(forwardRef(() => Orders)) readonly orders: Orders) {}
        label() {
          return 'users';
        }
        ordersOf(id: string) {
          return `${this.orders.label()}:${id}`;
        }
      }
      return { Orders, Users };
    }

    it.each([
      ['Orders first', (o: Function, u: Function) => [o, u]],
      ['Users first', (o: Function, u: Function) => [u, o]],
    ])('gives both working instances, identical to app.get() (%s)', async (_order, arrange) => {
      const { Orders, Users } = mutualPair();

      const app = await bootstrap(appModule({ providers: arrange(Orders, Users) as Provider[] }));

      const orders = app.get<InstanceType<typeof Orders>>(Orders);
      const users = app.get<InstanceType<typeof Users>>(Users);
      expect(orders).toBeInstanceOf(Orders);
      expect(users).toBeInstanceOf(Users);
      expect(orders.users).toBe(users);
      expect(users.orders).toBe(orders);
      expect(orders.ownerOf('7')).toBe('users:7');
      expect(users.ordersOf('7')).toBe('orders:7');
    });

    it('works across two modules (forwardRef on the modules and on the constructors)', async () => {
      @Injectable()
      class Cats {
        constructor(@Inject(forwardRef(() => Dogs)) readonly dogs: { sound(): string }) {}
        sound() {
          return 'meow';
        }
      }
      @Module({ imports: [forwardRef(() => DogsModule)], providers: [Cats], exports: [Cats] })
      class CatsModule {}
      @Injectable()
      class Dogs {
        constructor(@Inject(forwardRef(() => Cats)) readonly cats: Cats) {}
        sound() {
          return 'woof';
        }
      }
      @Module({ imports: [forwardRef(() => CatsModule)], providers: [Dogs], exports: [Dogs] })
      class DogsModule {}

      const app = await bootstrap(appModule({ imports: [CatsModule] }));

      expect(app.get<Cats>(Cats).dogs).toBe(app.get<Dogs>(Dogs));
      expect(app.get<Dogs>(Dogs).cats).toBe(app.get<Cats>(Cats));
      expect(app.get<Cats>(Cats).dogs.sound()).toBe('woof');
      expect(app.get<Dogs>(Dogs).cats.sound()).toBe('meow');
    });

    // Only one side lazy: whether it works must not depend on the order of the providers array.
    it.each([
      ['lazy side first', (lazy: Function, eager: Function) => [lazy, eager]],
      ['eager side first', (lazy: Function, eager: Function) => [eager, lazy]],
    ])('does not depend on provider order when only one side uses forwardRef (%s)', async (_order, arrange) => {
      @Injectable()
      class Eager {
        constructor(@Inject('LAZY') readonly lazy: { name(): string }) {}
        name() {
          return 'eager';
        }
      }
      @Injectable()
      class Lazy {
        constructor(@Inject(forwardRef(() => Eager)) readonly eager: Eager) {}
        name() {
          return 'lazy';
        }
      }
      const lazyProvider = { provide: 'LAZY', useClass: Lazy };

      const app = await bootstrap(appModule({ providers: arrange(lazyProvider as unknown as Function, Eager) as Provider[] }));

      expect(app.get<Eager>(Eager).lazy).toBe(app.get('LAZY'));
      expect(app.get<Lazy>('LAZY').eager).toBe(app.get<Eager>(Eager));
      expect(app.get<Eager>(Eager).lazy.name()).toBe('lazy');
      expect(app.get<Lazy>('LAZY').eager.name()).toBe('eager');
    });
  });

  describe('CIRCULAR_DEPENDENCY (a cycle without forwardRef)', () => {
    it('shows the cycle path and how to break it', async () => {
      @Injectable()
      class Billing {
        constructor(@Inject('INVOICES') readonly invoices: unknown) {}
      }
      @Injectable()
      class Invoices {
        constructor(readonly billing: Billing) {}
      }

      const error = await failureOf(appModule({ providers: [Billing, { provide: 'INVOICES', useClass: Invoices }] }));

      expect(error.code).toBe('CIRCULAR_DEPENDENCY');
      expect(error.message).toBe(circularMessage(['Billing', `'INVOICES'`, 'Billing']));
    });

    it('shows a three-provider cycle through symbol and string tokens', async () => {
      const C = Symbol('C');
      @Injectable()
      class A {
        constructor(@Inject('B') readonly b: unknown) {}
      }
      @Injectable()
      class B {
        constructor(@Inject(C) readonly c: unknown) {}
      }
      @Injectable()
      class Cc {
        constructor(readonly a: A) {}
      }

      const error = await failureOf(
        appModule({ providers: [A, { provide: 'B', useClass: B }, { provide: C, useClass: Cc }] }),
      );

      expect(error.code).toBe('CIRCULAR_DEPENDENCY');
      expect(error.message).toBe(circularMessage(['A', `'B'`, 'Symbol(C)', 'A']));
    });

    it('reports a factory that injects itself', async () => {
      const error = await failureOf(appModule({ providers: [{ provide: 'SELF', useFactory: (x: unknown) => x, inject: ['SELF'] }] }));

      expect(error.code).toBe('CIRCULAR_DEPENDENCY');
      expect(error.message).toBe(circularMessage([`'SELF'`, `'SELF'`]));
    });
  });

  describe('FACTORY_FAILED (a factory that fails)', () => {
    it('names the token and the module of an async factory that rejects', async () => {
      const DB = Symbol('DB');
      const failure = new Error('connection refused');
      @Module({
        providers: [{ provide: DB, useFactory: async () => Promise.reject(failure) }],
        exports: [DB],
      })
      class DatabaseModule {}

      const error = await failureOf(appModule({ imports: [DatabaseModule] }));

      expect(error.code).toBe('FACTORY_FAILED');
      expect(error.message).toBe(`Cannot create Symbol(DB) in DatabaseModule: its factory threw. Reason:\n    connection refused`);
      expect(error.cause).toBe(failure);
    });

    it('reports a non-Error rejection with its string form', async () => {
      @Module({ providers: [{ provide: 'SECRETS', useFactory: () => Promise.reject('vault sealed') }] })
      class SecretsModule {}

      const error = await failureOf(appModule({ imports: [SecretsModule] }));

      expect(error.code).toBe('FACTORY_FAILED');
      expect(error.message).toBe(`Cannot create 'SECRETS' in SecretsModule: its factory threw. Reason:\n    vault sealed`);
    });
  });

  describe('Scope.TRANSIENT', () => {
    it('gives each consumer its own instance, and ModuleRef.resolve() a fresh one each time', async () => {
      let built = 0;
      @Injectable({ scope: Scope.TRANSIENT })
      class Counter {
        readonly id = ++built;
      }
      @Injectable()
      class First {
        constructor(
          readonly counter: Counter,
          readonly moduleRef: ModuleRef,
        ) {}
      }
      @Injectable()
      class Second {
        constructor(readonly counter: Counter) {}
      }

      const app = await bootstrap(appModule({ providers: [First, Second, Counter] }));

      const first = app.get<First>(First);
      const second = app.get<Second>(Second);
      expect(first.counter).toBeInstanceOf(Counter);
      expect(second.counter).toBeInstanceOf(Counter);
      expect(first.counter).not.toBe(second.counter);

      const a = await first.moduleRef.resolve(Counter);
      const b = await first.moduleRef.resolve(Counter);
      expect(a).toBeInstanceOf(Counter);
      expect(a).not.toBe(b);
      expect(new Set([first.counter.id, second.counter.id, a.id, b.id]).size).toBe(4);
    });

    it('gives two parameters of one consumer two instances', async () => {
      @Injectable({ scope: Scope.TRANSIENT })
      class Buffer {}
      @Injectable()
      class Pipe {
        constructor(
          readonly input: Buffer,
          readonly output: Buffer,
        ) {}
      }

      const app = await bootstrap(appModule({ providers: [Pipe, Buffer] }));

      expect(app.get<Pipe>(Pipe).input).toBeInstanceOf(Buffer);
      expect(app.get<Pipe>(Pipe).input).not.toBe(app.get<Pipe>(Pipe).output);
    });

    it('honours scope on a useClass provider', async () => {
      @Injectable()
      class Impl {}
      @Injectable()
      class Left {
        constructor(@Inject('T') readonly t: Impl) {}
      }
      @Injectable()
      class Right {
        constructor(@Inject('T') readonly t: Impl) {}
      }

      const app = await bootstrap(
        appModule({ providers: [Left, Right, { provide: 'T', useClass: Impl, scope: Scope.TRANSIENT }] }),
      );

      expect(app.get<Left>(Left).t).toBeInstanceOf(Impl);
      expect(app.get<Left>(Left).t).not.toBe(app.get<Right>(Right).t);
    });
  });
});
