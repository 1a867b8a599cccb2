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
  ResourceTemplate,
  Scopes,
  Tool,
  UseGuards,
  userMessage,
  type CanActivate,
  type ComponentTransforms,
  type Context,
  type ExecutionContext,
} from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import { Arrivals } from '../support/waiting';

/** What the forecast method and the guard were given, per call. */
const seen: { method: unknown[]; guard: { name: string; args: unknown }[] } = { method: [], guard: [] };

class Watch implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.phase === 'call') seen.guard.push({ name: context.name, args: context.getArgs()[0] });
    return true;
  }
}

@Injectable()
class ForecastTools {
  @Tool({ description: 'Forecast for a city', tags: ['weather'], _meta: { 'example.com/team': 'weather' } })
  @UseGuards(Watch)
  forecast(
    @Param('city', { description: 'City name' }) city: string,
    @Param('units') units: string,
    @Param('user') user: string,
    @Param('days', { type: 'integer', optional: true }) days?: number,
  ): string {
    seen.method.push({ city, units, user, days });
    return `${city}: sunny for ${days ?? 1} days in ${units} for ${user}`;
  }

  @Tool({ description: 'Weather alerts' })
  alerts(): string {
    return 'no alerts';
  }

  @Tool()
  @Scopes('weather:admin')
  purge(): string {
    return 'purged';
  }

  @Prompt({ description: 'Ask about the weather' })
  ask(@Param() city: string) {
    return [userMessage(`What is the weather in ${city}?`)];
  }

  @Complete({ prompt: 'ask', argument: 'city' })
  cities(@Param() value: string): string[] {
    return ['Lyon', 'Lisbon'].filter((c) => c.startsWith(value));
  }

  @Resource('weather://stations', { description: 'Stations' })
  stations(): string[] {
    return ['Lyon'];
  }

  @ResourceTemplate('weather://cities/{city}')
  city(@Param() city: string): string {
    return `city ${city}`;
  }
}

/** The feature module's own transforms, by declared names (before its namespace). */
const featureTransforms: ComponentTransforms = {
  tools: {
    forecast: {
      name: 'get_forecast',
      title: 'Forecast',
      tags: ['public'],
      meta: { 'example.com/source': 'feature' },
      args: {
        city: { name: 'location', description: 'Where' },
        units: { hide: { value: 'metric' } },
        user: { hide: { fn: (ctx: Context) => ctx.auth?.subject ?? 'anonymous' } },
        days: { default: 3 },
      },
    },
    alerts: { enabled: false },
  },
  prompts: { ask: { name: 'ask_weather', description: 'Ask the weather of a city' } },
  resources: { stations: { name: 'all_stations', description: 'Every station' }, city: { title: 'A city' } },
};

@Module({ imports: [McpModule.forFeature({ namespace: 'eu', transforms: featureTransforms })], providers: [ForecastTools] })
class EuWeather {}

@Injectable()
class Admin {
  constructor(private readonly components: McpComponents) {}

  @Tool()
  showAlerts(@Ctx() _ctx: Context): string {
    this.components.tools.enable('eu_alerts');
    return 'shown';
  }
}

function gateway(transforms?: ComponentTransforms) {
  @Module({ imports: [McpModule.forRoot({ name: 'gateway', version: '1.0.0', ...(transforms ? { transforms } : {}) }), EuWeather], providers: [Admin] })
  class Gateway {}
  return Gateway;
}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;

// Transforms change what is served, not how: the same on both eras (list_changed is a 2025-11-25 session notification).
describe.each(['2025-11-25', '2026-07-28'] as const)('transforms of tools (protocol %s)', (protocolVersion) => {
  beforeEach(() => {
    seen.method = [];
    seen.guard = [];
  });

  it('serves a forFeature transform under the namespace: name, title, tags, meta, and arguments renamed, hidden and defaulted', async () => {
    const client = await createTestClient(gateway(), { protocolVersion, auth: { subject: 'ada' } });
    try {
      const tools = (await client.listTools()).tools;
      // eu_alerts is disabled by its transform (registered, not listed); eu_purge needs a scope this caller lacks.
      expect(tools.map((t) => t.name).sort()).toEqual(['eu_get_forecast', 'showAlerts']);
      const forecast = tools.find((t) => t.name === 'eu_get_forecast')!;
      expect(forecast).toMatchObject({ title: 'Forecast', description: 'Forecast for a city', _meta: { 'example.com/team': 'weather', 'example.com/source': 'feature' } });
      expect(forecast.inputSchema).toEqual({
        type: 'object',
        properties: {
          location: { type: 'string', description: 'Where' },
          days: { type: 'integer', default: 3 },
        },
        required: ['location'],
        additionalProperties: false,
      });

      const result = await client.callTool({ name: 'eu_get_forecast', arguments: { location: 'Lyon' } });
      expect(text(result)).toBe('Lyon: sunny for 3 days in metric for ada');
      // The method and its guard see the declared names, with the hidden values filled; the guard sees the served name.
      expect(seen.method).toEqual([{ city: 'Lyon', units: 'metric', user: 'ada', days: 3 }]);
      expect(seen.guard).toEqual([{ name: 'eu_get_forecast', args: { city: 'Lyon', units: 'metric', user: 'ada', days: 3 } }]);

      // What a client sends under a hidden or renamed-away name is ignored: the operator's value stands.
      await client.callTool({ name: 'eu_get_forecast', arguments: { location: 'Lisbon', units: 'imperial', user: 'mallory', city: 'Paris', days: 5 } });
      expect(seen.method[1]).toEqual({ city: 'Lisbon', units: 'metric', user: 'ada', days: 5 });

      // Validation runs on the method's own schema, and names the arguments as the client knows them.
      const invalid = await client.callTool({ name: 'eu_get_forecast', arguments: { days: 2 } });
      expect(invalid).toMatchObject({ isError: true });
      expect(text(invalid)).toBe('Invalid arguments for tool eu_get_forecast: location: is required');
      const wrongType = await client.callTool({ name: 'eu_get_forecast', arguments: { location: 'Lyon', days: 'many' } });
      expect(text(wrongType)).toBe('Invalid arguments for tool eu_get_forecast: days: must be an integer');
    } finally {
      await client.close();
    }
  });
});

describe('transforms of prompts and resources, and the application’s own', () => {
  beforeEach(() => {
    seen.method = [];
    seen.guard = [];
  });
  const protocolVersion = '2025-11-25';

  it('renames prompts (their completions follow) and resources, and enabling a disabled tool sends list_changed', async () => {
    const client = await createTestClient(gateway(), { protocolVersion });
    const changes = new Arrivals<string>();
    client.setNotificationHandler('notifications/tools/list_changed', () => changes.push('tools'));
    try {
      expect((await client.listPrompts()).prompts).toEqual([{ name: 'eu_ask_weather', description: 'Ask the weather of a city', arguments: [{ name: 'city', required: true }] }]);
      const prompt = await client.getPrompt({ name: 'eu_ask_weather', arguments: { city: 'Lyon' } });
      expect(prompt.messages[0].content).toEqual({ type: 'text', text: 'What is the weather in Lyon?' });
      const completion = await client.complete({ ref: { type: 'ref/prompt', name: 'eu_ask_weather' }, argument: { name: 'city', value: 'Li' } });
      expect(completion.completion.values).toEqual(['Lisbon']);

      const resources = (await client.listResources()).resources;
      expect(resources).toEqual([expect.objectContaining({ uri: 'weather://eu/stations', name: 'eu_all_stations', description: 'Every station' })]);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([expect.objectContaining({ uriTemplate: 'weather://eu/cities/{city}', name: 'eu_city', title: 'A city' })]);

      await client.callTool({ name: 'showAlerts', arguments: {} });
      expect(await changes.until(1)).toEqual(['tools']);
      expect((await client.listTools()).tools.map((t) => t.name)).toContain('eu_alerts');
    } finally {
      await client.close();
    }
  });

  it('applies forRoot transforms by served names, after the feature’s (arguments too), and keeps scopes and guards on the renamed tool', async () => {
    const root: ComponentTransforms = {
      tools: {
        eu_get_forecast: { name: 'forecast', description: 'The forecast', tags: ['root'], args: { location: { name: 'place' } } },
        eu_purge: { name: 'purge_cache' },
      },
    };
    const client = await createTestClient(gateway(root), { protocolVersion, auth: { subject: 'bob' } });
    try {
      const tools = (await client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(['forecast', 'showAlerts']);
      const forecast = tools.find((t) => t.name === 'forecast')!;
      expect(forecast.description).toBe('The forecast');
      expect(Object.keys(forecast.inputSchema.properties!)).toEqual(['place', 'days']);
      expect(forecast.inputSchema.required).toEqual(['place']);
      expect(text(await client.callTool({ name: 'forecast', arguments: { place: 'Bern', days: 1 } }))).toBe('Bern: sunny for 1 days in metric for bob');
      expect(seen.guard.map((g) => g.name)).toEqual(['forecast']);
      expect(text(await client.callTool({ name: 'forecast', arguments: { days: 1 } }))).toBe('Invalid arguments for tool forecast: place: is required');
      // The old names are gone, as a namespace's are.
      await expect(client.callTool({ name: 'eu_get_forecast', arguments: { place: 'Bern' } })).rejects.toThrow(/Unknown tool: eu_get_forecast/);
      // @Scopes() follows the renamed tool: a caller with the scope sees purge_cache, this one is told which to ask for.
      expect(client.app.inspect().tools.find((t) => t.name === 'purge_cache')?.scopes).toEqual(['weather:admin']);
      const refused = await client.callTool({ name: 'purge_cache', arguments: {} });
      expect(refused).toMatchObject({ isError: true });
      expect(text(refused)).toMatch(/weather:admin/);
      const tags = client.app.inspect().tools.find((t) => t.name === 'forecast')!.tags;
      expect([...(tags ?? [])].sort()).toEqual(['public', 'root', 'weather']);
    } finally {
      await client.close();
    }
  });
});

describe('transforms of objects added at runtime', () => {
  it('app.tools.add(instance, { namespace, transforms }) returns the served names, which remove exactly what it added', async () => {
    const client = await createTestClient(gateway(), { auth: { subject: 'cy' } });
    try {
      const added = client.app.tools.add(new ForecastTools(), { namespace: 'us', transforms: { tools: { forecast: { name: 'outlook', args: { units: { hide: { value: 'imperial' } } } } }, prompts: { ask: { name: 'question' } } } });
      expect(added).toEqual({ tools: ['us_outlook', 'us_alerts', 'us_purge'], resources: ['us_stations'], templates: ['us_city'], prompts: ['us_question'] });
      expect(text(await client.callTool({ name: 'us_outlook', arguments: { city: 'Boston', user: 'cy' } }))).toBe('Boston: sunny for 1 days in imperial for cy');
      for (const name of added.tools) client.app.tools.remove(name);
      for (const name of [...added.resources, ...added.templates]) client.app.resources.remove(name);
      for (const name of added.prompts) client.app.prompts.remove(name);
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(['eu_get_forecast', 'showAlerts']);
      expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(['eu_ask_weather']);
    } finally {
      await client.close();
    }
  });
});

describe('transform errors', () => {
  const bootstrap = (transforms: ComponentTransforms) => McpFactory.create(gateway(transforms)).then(
    () => undefined,
    (error: unknown) => error as BootstrapError,
  );

  it('fails the bootstrap naming a forRoot key that is not a served name, the closest one, and the fix', async () => {
    const error = await bootstrap({ tools: { eu_get_forcast: { description: 'typo' } } });
    expect(error).toBeInstanceOf(BootstrapError);
    expect(error!.code).toBe('UNKNOWN_TRANSFORM_TARGET');
    expect(error!.message).toBe(
      "Cannot apply McpModule.forRoot({ transforms }): transforms.tools names 'eu_get_forcast', and no tool is served under that name (did you mean 'eu_get_forecast'?).\n" +
        "Fix: key it by one of the served names: 'showAlerts', 'eu_get_forecast', 'eu_alerts', 'eu_purge' (forRoot transforms name components as clients see them, namespaces included; " +
        "a proxied server's components arrive after the bootstrap: transform them with McpModule.proxy({ transforms }), by the remote's names).",
    );
  });

  it('fails the bootstrap naming a forFeature key that is not a declared name', async () => {
    @Module({ imports: [McpModule.forFeature({ transforms: { prompts: { asks: { name: 'x' } } } })], providers: [ForecastTools] })
    class Feature {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1' }), Feature] })
    class App {}
    const error = (await McpFactory.create(App).catch((e: unknown) => e)) as BootstrapError;
    expect(error.code).toBe('UNKNOWN_TRANSFORM_TARGET');
    expect(error.message).toBe(
      "Cannot apply McpModule.forFeature({ transforms }) (the components of ForecastTools): transforms.prompts names 'asks', and no prompt is declared under that name (did you mean 'ask'?).\n" +
        "Fix: key it by one of the declared names: 'ask' (the names the decorators give, before the namespace).",
    );
  });

  it('fails the bootstrap naming an argument the tool does not have', async () => {
    // A forRoot transform sees the arguments as the forFeature transform serves them.
    const error = await bootstrap({ tools: { eu_get_forecast: { args: { city: { name: 'town' } } } } });
    expect(error!.code).toBe('UNKNOWN_TRANSFORM_TARGET');
    expect(error!.message).toBe(
      "Cannot transform the argument 'city' of tool 'eu_get_forecast' (ForecastTools.forecast): the tool has no argument 'city'.\n" +
        "Fix: key the args transform by one of: 'location', 'days'.",
    );
  });

  it('refuses a hidden value the argument’s schema rejects, two arguments served under one name, and a malformed transform', async () => {
    const hidden = await bootstrap({ tools: { eu_get_forecast: { args: { days: { hide: { value: 'soon' } } } } } });
    expect(hidden!.code).toBe('INVALID_DEFAULT');
    expect(hidden!.message).toMatch(/^Cannot transform the argument 'days' of tool 'eu_get_forecast' \(ForecastTools\.forecast\): its hide: \{ value \} "soon" does not match the argument's schema \(it must be an integer\)\.\nFix: /);
    const clash = await bootstrap({ tools: { eu_get_forecast: { args: { days: { name: 'location' } } } } });
    expect(clash!.message).toBe(
      "Cannot transform the arguments of tool 'eu_get_forecast' (ForecastTools.forecast): both 'location' and 'days' would be served as 'location'.\nFix: give one of them another name (args: { days: { name: 'location_2' } }).",
    );
    const shape = await bootstrap({ tools: { eu_get_forecast: { enabled: 'no' as never } } });
    expect(shape!.code).toBe('INVALID_OPTION');
    expect(shape!.message).toBe('Cannot use McpModule.forRoot({ transforms.tools.eu_get_forecast.enabled }): "no" is not a boolean.\nFix: give enabled: false to register it disabled.');
    expect(() => McpModule.forFeature({})).toThrow(/it names neither a namespace nor transforms/);
  });
});
