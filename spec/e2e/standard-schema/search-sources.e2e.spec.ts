import 'reflect-metadata';
import { type } from 'arktype';
import { FULL_TOOL_LIST, Injectable, McpComponents, McpModule, Module, Param, Tool, type OnApplicationBootstrap } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as z from 'zod';

/**
 * Standard Schema tools (issue 42, item 3) in a namespaced feature module with its own transforms (the per-source
 * transforms an OpenAPI document or a proxy takes), in a hand-written provider, and behind tool search: search_tools
 * returns them as tools/list describes them, call_tool runs them as a direct call does (the library validates and
 * parses: defaults applied, issues named with the served names).
 */

const zodShape = z.object({ city: z.string().min(2).describe('the city'), days: z.number().int().min(1).max(7).default(3) });
const valibotShape = toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(2)), days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)), 3) }));
const arkShape = type({ city: 'string >= 2', 'days?': '1 <= number.integer <= 7' });

@Injectable()
class Forecasts {
  @Tool({ description: 'Weather forecast of a city, zod', parameters: zodShape })
  zod_forecast(args: z.output<typeof zodShape>): string {
    return `${args.city} for ${args.days} days`;
  }

  @Tool({ description: 'Weather forecast of a city, valibot', parameters: valibotShape })
  valibot_forecast(args: { city: string; days: number }): string {
    return `${args.city} for ${args.days} days`;
  }

  @Tool({ description: 'Weather forecast of a city, arktype', parameters: arkShape })
  ark_forecast(args: typeof arkShape.infer): string {
    return `${args.city} for ${args.days ?? 3} days`;
  }

  @Tool({ description: 'Weather forecast of a city, one zod parameter' })
  param_forecast(@Param('city', { schema: z.string().min(2) }) city: string, @Param('days', { schema: z.number().int().min(1).max(7).default(3) }) days: number): string {
    return `${city} for ${days} days`;
  }
}

/** The feature's own transforms, by declared names (as McpModule.fromOpenApi({ transforms }) takes them). */
const rename = { name: '', args: { city: { name: 'town' }, days: { default: 2 } } };
const TOOLS = ['zod_forecast', 'valibot_forecast', 'ark_forecast', 'param_forecast'] as const;
const featureTransforms = { tools: Object.fromEntries(TOOLS.map((name) => [name, { ...rename, name: `${name.split('_')[0]}_weather` }])) };
const SERVED = TOOLS.map((name) => `eu_${name.split('_')[0]}_weather`);

@Module({ imports: [McpModule.forFeature({ namespace: 'eu', transforms: featureTransforms })], providers: [Forecasts] })
class EuropeModule {}

/** A hand-written provider whose tool gives its arguments as a Standard Schema. */
@Injectable()
class Rivers implements OnApplicationBootstrap {
  constructor(private readonly control: McpComponents) {}
  onApplicationBootstrap(): void {
    this.control.providers.add(
      {
        source: 'the river gauges',
        components: () => ({
          tools: [
            {
              name: 'level',
              description: 'Water level of a river gauge',
              parameters: z.object({ river: z.string().min(2), unit: z.enum(['cm', 'in']).default('cm') }),
              call: (args: Record<string, unknown>) => `${String(args.river)}: 120 ${String(args.unit)}`,
            },
            { name: 'stations', description: 'Every gauge station (no arguments, no schema given)', call: () => 'Rhine, Danube' },
          ],
        }),
      },
      { namespace: 'water', transforms: { tools: { level: { name: 'gauge', args: { river: { name: 'stream' } } } } } },
    );
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'searching', version: '1.0.0', toolSearch: { maxResults: 10 }, logger: { error() {}, warn() {} } }), EuropeModule],
  providers: [Rivers],
})
class SearchingModule {}

const text = (result: unknown) => (result as { content: { text: string }[] }).content[0]?.text;
const found = (result: unknown) => (result as { structuredContent: { tools: { name: string; inputSchema: Record<string, unknown> }[] } }).structuredContent.tools;

describe.each(['2025-11-25', '2026-07-28'] as const)('Standard Schema tools behind tool search, namespaced and transformed (protocol %s)', (protocolVersion) => {
  let client: TestClient;
  beforeAll(async () => {
    client = await createTestClient(SearchingModule, { protocolVersion });
  });
  afterAll(() => client.close());

  it('advertises each under its served name with the renamed argument and the new default, from the library’s JSON Schema', async () => {
    const full = (await client.listTools({ _meta: { [FULL_TOOL_LIST]: true } })).tools;
    expect(full.map((t) => t.name).sort()).toEqual([...SERVED, 'water_gauge', 'water_stations'].sort());
    expect(full.find((t) => t.name === 'water_stations')!.inputSchema).toEqual({ type: 'object', properties: {}, additionalProperties: false });
    for (const name of SERVED) {
      const schema = full.find((t) => t.name === name)!.inputSchema;
      expect(schema).toMatchObject({ type: 'object', properties: { town: { type: 'string', minLength: 2 }, days: { default: 2 } }, required: ['town'] });
      expect(Object.keys(schema.properties as object).sort()).toEqual(['days', 'town']);
      expect(JSON.stringify(schema)).not.toContain('$ref');
    }
    expect(full.find((t) => t.name === 'water_gauge')!.inputSchema).toMatchObject({
      properties: { stream: { type: 'string', minLength: 2 }, unit: { enum: ['cm', 'in'], default: 'cm' } },
      required: ['stream'],
    });
  });

  it('finds them with search_tools as tools/list describes them', async () => {
    const full = (await client.listTools({ _meta: { [FULL_TOOL_LIST]: true } })).tools;
    const result = await client.callTool({ name: 'search_tools', arguments: { query: 'weather forecast' } });
    const tools = found(result);
    expect(tools.map((t) => t.name).sort()).toEqual([...SERVED].sort());
    for (const tool of tools) expect(tool).toEqual(full.find((t) => t.name === tool.name));
    expect(found(await client.callTool({ name: 'search_tools', arguments: { query: 'river level' } })).map((t) => t.name)).toEqual(['water_gauge']);
  });

  it('runs them through call_tool as directly: the library parses (the transform’s default, then its own), and refuses with the served names', async () => {
    for (const name of SERVED) {
      expect(text(await client.callTool({ name, arguments: { town: 'Oslo' } }))).toBe('Oslo for 2 days');
      expect(text(await client.callTool({ name: 'call_tool', arguments: { name, arguments: { town: 'Oslo', days: 5 } } }))).toBe('Oslo for 5 days');
      const direct = await client.callTool({ name, arguments: { town: 'O', days: 9 } });
      const wrapped = await client.callTool({ name: 'call_tool', arguments: { name, arguments: { town: 'O', days: 9 } } });
      expect(direct.isError).toBe(true);
      expect(wrapped).toEqual(direct);
      expect(text(direct)).toMatch(new RegExp(`^Invalid arguments for tool ${name}: town: .*\\bdays: `, 's'));
      expect(text(direct)).not.toMatch(/\bcity\b/);
    }
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'water_gauge', arguments: { stream: 'Rhine' } } }))).toBe('Rhine: 120 cm');
    expect(text(await client.callTool({ name: 'call_tool', arguments: { name: 'water_stations' } }))).toBe('Rhine, Danube');
    const refused = await client.callTool({ name: 'call_tool', arguments: { name: 'water_gauge', arguments: { stream: 'Rhine', unit: 'ft' } } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Invalid arguments for tool water_gauge: unit: /);
  });
});
