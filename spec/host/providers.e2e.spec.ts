import 'reflect-metadata';
import {
  BootstrapError,
  Injectable,
  McpComponents,
  McpModule,
  Module,
  type CanActivate,
  type Context,
  type ExecutionContext,
  type McpProvider,
  type OnApplicationBootstrap,
  type ProvidedComponents,
} from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { petDocument, startPetApi, type RunningApi } from '../fixtures/openapi/pet-api';
import { everythingStdio } from '../support/everything';
import { waitFor } from '../support/waiting';

/**
 * Every source is a provider (issue 41, item 1): a proxied server (server-everything over stdio), an OpenAPI API
 * and a hand-written `McpProvider` reach the same registries, through the same transforms (forRoot's, by served
 * names), guards, scopes and validation; a provider's change replaces what it served in one list_changed.
 */

/** Sees every call and list entry of every source: the pipeline is one, whatever the source. */
class Seen implements CanActivate {
  static readonly calls: string[] = [];
  canActivate(context: ExecutionContext): boolean {
    if ((context as unknown as { phase?: string }).phase !== 'list') Seen.calls.push(`${context.getClass().name}:${context.name}`);
    return true;
  }
}

/** A provider written by hand: data and functions, no decorators. Its `watch` tells the application of a change. */
@Injectable()
class Weather implements McpProvider, OnApplicationBootstrap {
  readonly source = 'the weather service';
  private cities = ['Paris', 'Oslo'];
  private changed?: () => void;
  constructor(private readonly control: McpComponents) {}

  onApplicationBootstrap(): void {
    this.control.providers.add(this, { namespace: 'wx', transforms: { tools: { forecast: { name: 'weather', description: 'Tomorrow, by city' } } } });
  }

  watch(changed: () => void): () => void {
    this.changed = changed;
    return () => (this.changed = undefined);
  }

  /** A new city: the catalogue changes (the forecast's enum, and a new tool). */
  addCity(city: string): void {
    this.cities = [...this.cities, city];
    this.changed?.();
  }

  components(): ProvidedComponents {
    const cities = this.cities;
    return {
      tools: [
        {
          name: 'forecast',
          inputSchema: { type: 'object', properties: { city: { type: 'string', enum: cities }, days: { type: 'integer', minimum: 1, default: 1 } }, required: ['city'], additionalProperties: false },
          call: ({ city, days }, ctx: Context) => `${String(days ?? 1)} day(s) of sun in ${String(city)} for ${ctx.auth?.subject ?? 'nobody'}`,
        },
        { name: 'alerts', scopes: ['weather:alerts'], inputSchema: { type: 'object' }, call: () => 'no alerts' },
        ...(cities.length > 2 ? [{ name: 'cities', inputSchema: { type: 'object' }, call: () => cities.join(', ') }] : []),
      ],
      resources: [{ uri: 'weather://stations', name: 'stations', mimeType: 'application/json', read: () => ({ stations: cities.length }) }],
      templates: [{ uriTemplate: 'weather://city/{name}', name: 'city', read: ({ name }) => `${name}: sunny` }],
      prompts: [{ name: 'brief', arguments: [{ name: 'city', required: true }, { name: 'tone' }], get: ({ city, tone }) => `Brief me on ${city}${tone ? `, ${tone}` : ''}.` }],
      completers: [{ prompt: 'brief', argument: 'city', complete: (value) => cities.filter((c) => c.toLowerCase().startsWith(value.toLowerCase())) }],
    };
  }
}

let api: RunningApi;

function application() {
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'sources',
        version: '1.0.0',
        guards: [Seen],
      }),
      // A transform per source, by the source's own names: the same step (then the namespace), whatever the source.
      McpModule.proxy({ namespace: 'ev', stdio: everythingStdio, transforms: { tools: { echo: { name: 'shout' } } } }),
      McpModule.fromOpenApi({ namespace: 'pets', document: petDocument(), baseUrl: `${api.origin}/api`, transforms: { tools: { getPet: { name: 'pet' } } } }),
    ],
    providers: [Weather],
  })
  class Sources {}
  return Sources;
}

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text ?? '';

describe('providers: a proxy, an OpenAPI API and a hand-written provider through one set of registries', () => {
  let client: TestClient;
  beforeAll(async () => {
    api = await startPetApi();
    client = await createTestClient(application(), { auth: { subject: 'ada', scopes: [] } });
  }, 60_000);
  afterAll(async () => {
    await client?.close();
    await api?.close();
  });

  it('lists the three sources, each renamed by the same transform step, then namespaced', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ev_shout', 'pets_pet', 'wx_weather']));
    for (const name of ['ev_echo', 'pets_getPet', 'wx_forecast']) expect(names).not.toContain(name);
    const weather = (await client.listTools()).tools.find((t) => t.name === 'wx_weather')!;
    expect(weather.description).toBe('Tomorrow, by city');
    expect(weather.inputSchema).toMatchObject({ properties: { city: { enum: ['Paris', 'Oslo'] } } });
    // A provided component with scopes is hidden from a caller without them, as @Scopes() hides a method.
    expect(names).not.toContain('wx_alerts');
  });

  it('calls each through the one pipeline: the guard sees every source, validation uses the advertised schema', async () => {
    Seen.calls.length = 0;
    expect(text(await client.callTool({ name: 'ev_shout', arguments: { message: 'hi' } }))).toBe('Echo: hi');
    expect(text(await client.callTool({ name: 'wx_weather', arguments: { city: 'Oslo' } }))).toBe('1 day(s) of sun in Oslo for ada');
    // The API has no pet 3 yet: its answer, as the API gave it, shows the call reached it.
    expect(text(await client.callTool({ name: 'pets_pet', arguments: { id: 3 } }))).toMatch(/^GET \/pets\/3 answered HTTP 404/);
    expect(api.received.at(-1)?.target).toBe('/api/pets/3');
    expect(Seen.calls).toEqual(['McpProxy(ev):ev_shout', 'Weather(wx):wx_weather', 'McpOpenApi(pets):pets_pet']);
    const invalid = await client.callTool({ name: 'wx_weather', arguments: { city: 'Rome' } });
    expect(invalid.isError).toBe(true);
    expect(text(invalid)).toMatch(/^Invalid arguments for tool wx_weather: city: /);
  });

  it('serves the provider’s resources, templates, prompts and completions', async () => {
    expect((await client.readResource({ uri: 'weather://wx/stations' })).contents[0]).toMatchObject({ uri: 'weather://wx/stations', text: '{"stations":2}' });
    expect((await client.readResource({ uri: 'weather://wx/city/Oslo' })).contents[0]).toMatchObject({ text: 'Oslo: sunny' });
    const brief = await client.getPrompt({ name: 'wx_brief', arguments: { city: 'Paris' } });
    expect(brief.messages[0]).toMatchObject({ role: 'user', content: { type: 'text', text: 'Brief me on Paris.' } });
    await expect(client.getPrompt({ name: 'wx_brief', arguments: {} })).rejects.toThrow(/city/);
    const completed = await client.complete({ ref: { type: 'ref/prompt', name: 'wx_brief' }, argument: { name: 'city', value: 'o' } });
    expect(completed.completion.values).toEqual(['Oslo']);
  });

  it('replaces what a provider served when it reports a change: one list_changed, the new schema validated', async () => {
    const changes: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void changes.push('tools'));
    client.app.get(Weather).addCity('Rome');
    await waitFor(() => changes.length > 0);
    const tools = (await client.listTools()).tools;
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['wx_weather', 'wx_cities', 'ev_shout', 'pets_pet']));
    expect(text(await client.callTool({ name: 'wx_weather', arguments: { city: 'Rome', days: 2 } }))).toBe('2 day(s) of sun in Rome for ada');
    expect(text(await client.callTool({ name: 'wx_cities', arguments: {} }))).toBe('Paris, Oslo, Rome');
    expect(changes).toEqual(['tools']);
  });

  it('adds a provider at run time, and removes it', async () => {
    const served = client.app.providers.add({ source: 'a test', components: () => ({ tools: [{ name: 'ping', inputSchema: { type: 'object' }, call: () => 'pong' }] }) });
    expect(served.names.tools).toEqual(['ping']);
    expect(text(await client.callTool({ name: 'ping', arguments: {} }))).toBe('pong');
    served.remove();
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('ping');
  });

  it('refuses a provider it cannot serve, naming the component and the provider; nothing of it is added', () => {
    const bad: McpProvider = {
      source: 'a bad source',
      components: () => ({ tools: [{ name: 'fine', inputSchema: { type: 'object' }, call: () => 'ok' }, { name: 'not a name!', inputSchema: { type: 'object' }, call: () => 'no' }] }),
    };
    expect(() => client.app.providers.add(bad)).toThrow(BootstrapError);
    expect(() => client.app.providers.add(bad)).toThrow(/McpProvider\.tool:not a name!: 'not a name!' is not a valid MCP tool name/);
    expect(client.app.tools.names()).not.toContain('fine');
  });
});
