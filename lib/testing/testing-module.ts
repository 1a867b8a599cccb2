import type { Constructor, DependencyToken, GeneratedMetadata, InjectionToken, ModuleOptions, Provider } from '../interfaces';
import { McpFactory, type McpApplication } from '../host';

/**
 * Builds an application for a test, with providers replaced by mocks.
 *
 * @example
 * const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
 *   .overrideProvider(GeoService).useValue({ locate: () => ({ lat: 0, lon: 0 }) })
 *   .compile();
 * const client = await createTestClient(moduleRef);
 */
export class Test {
  static createTestingModule(metadata: ModuleOptions): TestingModuleBuilder {
    return new TestingModuleBuilder(metadata);
  }
}

export class TestingModuleBuilder {
  private readonly overrides = new Map<InjectionToken, Provider>();

  constructor(private readonly metadata: ModuleOptions) {}

  /** Replaces the provider registered under `token`, wherever in the module graph it is declared. */
  overrideProvider(token: InjectionToken): OverrideBy {
    const set = (provider: Provider) => {
      this.overrides.set(token, provider);
      return this;
    };
    return {
      useValue: (value) => set({ provide: token, useValue: value }),
      useClass: (cls) => set({ provide: token, useClass: cls }),
      useFactory: ({ factory, inject }) => set({ provide: token, useFactory: factory, inject: inject ?? [] }),
    };
  }

  /**
   * Bootstraps the application (all lifecycle hooks included) with the overrides in place, and with the types
   * `mcp-reflect generate` wrote when `metadata` is given (as `McpFactory.create(AppModule, { metadata })`).
   */
  async compile(options: { metadata?: GeneratedMetadata } = {}): Promise<TestingModule> {
    class TestingRootModule {}
    const app = await McpFactory.create({ module: TestingRootModule, ...this.metadata }, { overrides: this.overrides, ...(options.metadata ? { metadata: options.metadata } : {}) });
    return new TestingModule(app);
  }
}

export interface OverrideBy {
  useValue(value: unknown): TestingModuleBuilder;
  useClass(cls: Constructor): TestingModuleBuilder;
  useFactory(options: { factory: (...args: any[]) => unknown; inject?: DependencyToken[] }): TestingModuleBuilder;
}

/** A compiled testing module: the application, and its providers. Pass it to `createTestClient()`. */
export class TestingModule {
  constructor(readonly app: McpApplication) {}

  get<T>(token: abstract new (...args: never[]) => T): T;
  get<T = unknown>(token: InjectionToken): T;
  get<T = unknown>(token: InjectionToken): T {
    return this.app.get<T>(token);
  }

  close(): Promise<void> {
    return this.app.close();
  }
}
