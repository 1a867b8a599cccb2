import 'reflect-metadata';
import {
  BootstrapError,
  Complete,
  Ctx,
  Injectable,
  McpComponents,
  McpFactory,
  McpModule,
  Module,
  Param,
  Prompt,
  Resource,
  ResourceList,
  ResourceTemplate,
  Tool,
  UiResource,
  UseGuards,
  userMessage,
  type CanActivate,
  type Context,
  type ExecutionContext,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { Arrivals } from '../support/waiting';

/** Lets through only calls of components whose served name says they are the `eu` forecast. */
class EuOnly implements CanActivate {
  static seen: string[] = [];
  canActivate(context: ExecutionContext): boolean {
    EuOnly.seen.push(`${context.kind}:${context.name}`);
    return context.name.startsWith('eu_');
  }
}

@Injectable()
class ForecastTools {
  @Tool({ description: 'Forecast for a city' })
  forecast(@Param() city: string): string {
    return `sunny in ${city}`;
  }

  @Tool()
  @UseGuards(EuOnly)
  guarded(): string {
    return 'let through';
  }

  @Resource('weather://stations', { mimeType: 'application/json' })
  stations(): string[] {
    return ['Lyon'];
  }

  @ResourceTemplate('weather://cities/{city}')
  city(@Param() city: string): string {
    return `city ${city}`;
  }

  @ResourceList()
  listed(): { uri: string; name: string }[] {
    return [{ uri: 'weather://cities/Paris', name: 'Paris' }];
  }

  @Prompt({ description: 'Ask about the weather' })
  ask(@Param() city: string) {
    return [userMessage(`What is the weather in ${city}?`)];
  }

  @Complete({ prompt: 'ask', argument: 'city' })
  cities(@Param() value: string): string[] {
    return ['Lyon', 'Lisbon', 'Paris'].filter((c) => c.startsWith(value));
  }

  @Complete({ resourceTemplate: 'weather://cities/{city}', argument: 'city' })
  templateCities(@Param() value: string): string[] {
    return ['Berlin', 'Bern'].filter((c) => c.startsWith(value));
  }

  @Tool({ ui: 'ui://weather/map' })
  map(): string {
    return 'map';
  }

  @UiResource('ui://weather/map')
  mapView(): string {
    return '<html><body>map</body></html>';
  }
}

@Module({ imports: [McpModule.forFeature({ namespace: 'eu' })], providers: [ForecastTools] })
class EuWeather {}

@Injectable()
class Admin {
  constructor(private readonly components: McpComponents) {}

  @Tool()
  hideForecast(@Ctx() _ctx: Context): string {
    this.components.tools.disable('eu_forecast');
    return 'hidden';
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0' }), EuWeather], providers: [Admin] })
class Gateway {}

describe('namespaces: McpModule.forFeature({ namespace })', () => {
  it('serves a feature module’s tools, prompts, resources and templates under its namespace, and calls them by those names', async () => {
    const client = await createTestClient(Gateway);
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['eu_forecast', 'eu_guarded', 'eu_map', 'hideForecast']);
      expect((await client.callTool({ name: 'eu_forecast', arguments: { city: 'Lyon' } })).content).toEqual([{ type: 'text', text: 'sunny in Lyon' }]);
      const unknown = await client.callTool({ name: 'forecast', arguments: { city: 'Lyon' } }).catch((error: Error) => error);
      expect(String(unknown)).toMatch(/forecast/);

      const resources = (await client.listResources()).resources;
      expect(resources.map((r) => [r.uri, r.name]).sort()).toEqual([
        ['ui://eu/weather/map', 'eu_mapView'],
        ['weather://eu/cities/Paris', 'Paris'],
        ['weather://eu/stations', 'eu_stations'],
      ]);
      expect((await client.readResource({ uri: 'weather://eu/stations' })).contents[0]).toMatchObject({ text: '["Lyon"]' });
      // A URI a @ResourceList() gave (with the namespace) is read through the namespaced template.
      expect((await client.readResource({ uri: 'weather://eu/cities/Paris' })).contents[0]).toMatchObject({ text: 'city Paris' });
      expect((await client.listResourceTemplates()).resourceTemplates.map((t) => [t.uriTemplate, t.name])).toEqual([['weather://eu/cities/{city}', 'eu_city']]);

      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['eu_ask']);
      const prompt = await client.getPrompt({ name: 'eu_ask', arguments: { city: 'Lyon' } });
      expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'What is the weather in Lyon?' });

      const promptCompletion = await client.complete({ ref: { type: 'ref/prompt', name: 'eu_ask' }, argument: { name: 'city', value: 'L' } });
      expect(promptCompletion.completion.values).toEqual(['Lyon', 'Lisbon']);
      const templateCompletion = await client.complete({
        ref: { type: 'ref/resource', uri: 'weather://eu/cities/{city}' },
        argument: { name: 'city', value: 'Be' },
      });
      expect(templateCompletion.completion.values).toEqual(['Berlin', 'Bern']);

      // The tool's view is the module's view: its link has the namespace too.
      const map = (await client.listTools()).tools.find((t) => t.name === 'eu_map')!;
      expect(map._meta).toMatchObject({ ui: { resourceUri: 'ui://eu/weather/map' } });
    } finally {
      await client.close();
    }
  });

  it('shows guards the namespaced name, and list_changed follows a namespaced tool', async () => {
    EuOnly.seen = [];
    const client = await createTestClient(Gateway);
    const seen = new Arrivals<string>();
    client.setNotificationHandler('notifications/tools/list_changed', () => seen.push('tools'));
    try {
      expect((await client.callTool({ name: 'eu_guarded', arguments: {} })).content).toEqual([{ type: 'text', text: 'let through' }]);
      expect(EuOnly.seen).toContain('tool:eu_guarded');
      await client.callTool({ name: 'hideForecast', arguments: {} });
      expect(await seen.until(1)).toEqual(['tools']);
      expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('eu_forecast');
    } finally {
      await client.close();
    }
  });

  it('fails the bootstrap naming both components when two namespaces serve the same name', async () => {
    @Injectable()
    class Reports {
      @Tool()
      summary(): string {
        return 'eu summary';
      }
    }
    @Injectable()
    class EuReports {
      @Tool()
      reports_summary(): string {
        return 'root';
      }
    }
    @Module({ imports: [McpModule.forFeature({ namespace: 'eu' })], providers: [Reports] })
    class ReportsModule {}
    @Module({ imports: [McpModule.forFeature({ namespace: 'eu' })], providers: [EuReports] })
    class OtherModule {}
    @Injectable()
    class Root {
      @Tool()
      eu_summary(): string {
        return 'root';
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1' }), ReportsModule, OtherModule], providers: [Root] })
    class App {}
    const error = await McpFactory.create(App).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BootstrapError);
    expect((error as Error).message).toContain("Two components are served as the tool 'eu_summary'");
    expect((error as Error).message).toContain("Reports.summary (namespace 'eu')");
    expect((error as Error).message).toContain('Root.eu_summary (no namespace)');
    expect((error as Error).message).toContain('Fix:');
  });

  it('refuses a namespace that cannot prefix names and URIs, and a resource URI with no scheme:// part', async () => {
    expect(() => McpModule.forFeature({ namespace: 'has space' })).toThrow(/a namespace is 1 to 64 letters, digits, '-' or '\.'[\s\S]*Fix: give a short name/);
    expect(() => McpModule.forFeature({ namespace: '' })).toThrow(BootstrapError);
    @Injectable()
    class Urn {
      @Resource('urn:isbn:0451450523')
      book(): string {
        return 'a book';
      }
    }
    @Module({ imports: [McpModule.forFeature({ namespace: 'lib' })], providers: [Urn] })
    class Library {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1' }), Library] })
    class App {}
    const error = await McpFactory.create(App).catch((e: unknown) => e);
    expect((error as Error).message).toContain("Cannot serve the resource URI 'urn:isbn:0451450523' of Urn.book (namespace 'lib') in namespace 'lib'");
    expect((error as Error).message).toContain('Fix:');
  });

  it('refuses two namespaces for one module', async () => {
    @Injectable()
    class Twice {
      @Tool()
      t(): string {
        return 't';
      }
    }
    @Module({ imports: [McpModule.forFeature({ namespace: 'a' }), McpModule.forFeature({ namespace: 'b' })], providers: [Twice] })
    class Feature {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1' }), Feature] })
    class App {}
    await expect(McpFactory.create(App)).rejects.toThrow(/Feature: it imports McpModule\.forFeature\(\) 2 times \(namespaces 'a' and 'b'\)[\s\S]*Fix:/);
  });
});
