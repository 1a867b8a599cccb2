import 'reflect-metadata';
import {
  BootstrapError,
  Inject,
  Injectable,
  MCP_OPTIONS,
  McpModule,
  Module,
  Param,
  Tool,
  type McpModuleOptions,
  type OnModuleDestroy,
} from 'mcp-reflect';
import { Test, TestingModule, createTestClient, type TestClient } from 'mcp-reflect/testing';

interface Point {
  lat: number;
  lon: number;
}

/**
 * AppModule → WeatherModule → GeoModule: GeoService is declared two imports below the root, and the tool
 * that uses it lives in the middle module. Every call builds fresh classes, so no state leaks between tests.
 */
function weatherApp() {
  const destroyed: string[] = [];

  @Injectable()
  class Units {
    readonly name = 'metric';
  }
  @Injectable()
  class GeoService {
    locate(city: string): Point {
      throw new Error(`the real GeoService must not be called in tests (asked for ${city})`);
    }
  }
  @Module({ providers: [GeoService, Units], exports: [GeoService] })
  class GeoModule {}

  @Injectable()
  class WeatherTools implements OnModuleDestroy {
    constructor(readonly geo: GeoService) {}

    @Tool({ description: 'Where a city is' })
    locate(@Param() city: string): string {
      const { lat, lon } = this.geo.locate(city);
      return `${city}: ${lat},${lon}`;
    }

    onModuleDestroy() {
      destroyed.push('WeatherTools');
    }
  }
  @Module({ imports: [GeoModule], providers: [WeatherTools] })
  class WeatherModule {}

  @Module({ imports: [McpModule.forRoot({ name: 'weather-test', version: '1.0.0' }), WeatherModule] })
  class AppModule {}

  return { AppModule, WeatherModule, GeoModule, GeoService, Units, WeatherTools, destroyed };
}

async function locate(client: TestClient, city: string): Promise<unknown> {
  const result = await client.callTool({ name: 'locate', arguments: { city } });
  expect(result.isError).toBeFalsy();
  return result.content;
}

describe('Test.createTestingModule()', () => {
  it('replaces a provider with useValue; a tool called through a real client sees the mock', async () => {
    const { AppModule, GeoService, WeatherTools } = weatherApp();
    const mock = { locate: jest.fn((_city: string): Point => ({ lat: 48.85, lon: 2.35 })) };

    const testingModule = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(GeoService)
      .useValue(mock)
      .compile();
    const client = await createTestClient(testingModule);
    try {
      expect(await locate(client, 'Paris')).toEqual([{ type: 'text', text: 'Paris: 48.85,2.35' }]);
      expect(mock.locate).toHaveBeenCalledWith('Paris');
      expect(testingModule).toBeInstanceOf(TestingModule);
      expect(testingModule.get(GeoService)).toBe(mock);
      expect(testingModule.get<InstanceType<typeof WeatherTools>>(WeatherTools).geo).toBe(mock);
      expect(client.getServerVersion()).toMatchObject({ name: 'weather-test', version: '1.0.0' });
    } finally {
      await client.close();
    }
  });

  it('replaces a provider with useClass, injecting the replacement’s own dependencies', async () => {
    const { AppModule, GeoService, WeatherTools } = weatherApp();
    @Injectable()
    class FakeGeo {
      constructor(@Inject(MCP_OPTIONS) readonly options: McpModuleOptions) {}
      locate(): Point {
        return { lat: this.options.name.length, lon: 0 };
      }
    }

    const testingModule = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(GeoService)
      .useClass(FakeGeo)
      .compile();
    const client = await createTestClient(testingModule);
    try {
      expect(await locate(client, 'Oslo')).toEqual([{ type: 'text', text: `Oslo: ${'weather-test'.length},0` }]);
      expect(testingModule.get(GeoService)).toBeInstanceOf(FakeGeo);
      expect(testingModule.get<InstanceType<typeof WeatherTools>>(WeatherTools).geo).toBe(testingModule.get(GeoService));
    } finally {
      await client.close();
    }
  });

  it('replaces a provider with useFactory({ factory, inject }), injected from the provider’s own module', async () => {
    const { AppModule, GeoService, Units } = weatherApp();
    const factory = jest.fn((units: InstanceType<typeof Units>) => ({
      locate: (): Point => ({ lat: units.name.length, lon: -1 }),
    }));

    const testingModule = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(GeoService)
      .useFactory({ factory, inject: [Units] })
      .compile();
    const client = await createTestClient(testingModule);
    try {
      expect(await locate(client, 'Rome')).toEqual([{ type: 'text', text: `Rome: ${'metric'.length},-1` }]);
      expect(factory).toHaveBeenCalledTimes(1);
      expect(factory).toHaveBeenCalledWith(testingModule.get(Units));
    } finally {
      await client.close();
    }
  });

  it('replaces a provider declared in a module nested two imports deep, and a string token beside the tools', async () => {
    @Injectable()
    class Clock {
      now(): string {
        return 'real';
      }
    }
    @Module({ providers: [Clock], exports: [Clock] })
    class ClockModule {}
    @Module({ imports: [ClockModule], exports: [ClockModule] })
    class TimeModule {}
    @Injectable()
    class TimeTools {
      constructor(
        readonly clock: Clock,
        @Inject('ZONE') readonly zone: string,
      ) {}
      @Tool()
      now(): string {
        return `${this.clock.now()} ${this.zone}`;
      }
    }
    @Module({ imports: [TimeModule], providers: [TimeTools, { provide: 'ZONE', useValue: 'UTC' }] })
    class ToolsModule {}
    @Module({ imports: [McpModule.forRoot({ name: 'time', version: '1.0.0' }), ToolsModule] })
    class AppModule {}

    const testingModule = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(Clock)
      .useValue({ now: () => 'frozen' })
      .overrideProvider('ZONE')
      .useValue('CET')
      .compile();
    const client = await createTestClient(testingModule);
    try {
      const result = await client.callTool({ name: 'now', arguments: {} });
      expect(result.content).toEqual([{ type: 'text', text: 'frozen CET' }]);
      expect(testingModule.get('ZONE')).toBe('CET');
    } finally {
      await client.close();
    }
  });

  it('gives access to providers with get(), without a client', async () => {
    const { AppModule, Units, WeatherTools, GeoService } = weatherApp();

    const testingModule = await Test.createTestingModule({ imports: [AppModule] }).compile();
    try {
      expect(testingModule.get(Units).name).toBe('metric');
      expect(testingModule.get<InstanceType<typeof WeatherTools>>(WeatherTools).geo).toBe(testingModule.get(GeoService));
      expect(testingModule.get(MCP_OPTIONS)).toMatchObject({ name: 'weather-test', version: '1.0.0' });
      expect(() => testingModule.get('MISSING')).toThrow(
        `Cannot get 'MISSING': no module of the application provides it.\n` +
          `Fix: add it to the providers of a module in the application's module graph.`,
      );
    } finally {
      await testingModule.close();
    }
  });

  it('accepts providers of its own beside the imported modules', async () => {
    const { AppModule } = weatherApp();
    @Injectable()
    class Probe {
      constructor(@Inject(MCP_OPTIONS) readonly options: McpModuleOptions) {}
    }

    const testingModule = await Test.createTestingModule({ imports: [AppModule], providers: [Probe] }).compile();
    try {
      expect(testingModule.get<Probe>(Probe).options.name).toBe('weather-test');
    } finally {
      await testingModule.close();
    }
  });

  it('refuses to override a token that no module declares (UNKNOWN_OVERRIDE)', async () => {
    const { AppModule } = weatherApp();
    @Injectable()
    class NotProvided {}

    const error: unknown = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(NotProvided)
      .useValue({})
      .compile()
      .then(
        () => new Error('expected compile() to fail'),
        (e: unknown) => e,
      );

    expect(error).toBeInstanceOf(BootstrapError);
    expect((error as BootstrapError).code).toBe('UNKNOWN_OVERRIDE');
    expect((error as BootstrapError).message).toBe(
      `Cannot override NotProvided: no module of the testing module's graph declares a provider with that token.\n` +
        `Fix: override the token the application really uses (check imports and spelling), or add the provider with Test.createTestingModule({ providers }).`,
    );
  });

  it('closes the application when the client closes (onModuleDestroy runs once)', async () => {
    const { AppModule, destroyed } = weatherApp();
    const testingModule = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const client = await createTestClient(testingModule);

    expect(destroyed).toEqual([]);
    await client.close();
    expect(destroyed).toEqual(['WeatherTools']);

    await testingModule.close();
    expect(destroyed).toEqual(['WeatherTools']);
  });

  it('closes the application with testingModule.close()', async () => {
    const { AppModule, destroyed } = weatherApp();
    const testingModule = await Test.createTestingModule({ imports: [AppModule] }).compile();

    await testingModule.close();

    expect(destroyed).toEqual(['WeatherTools']);
  });
});
