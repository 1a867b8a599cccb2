import 'reflect-metadata';
import { type } from 'arktype';
import { Args, BootstrapError, Ctx, Injectable, McpModule, Module, Tool, type Context, type StandardOutput } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as z from 'zod';

const zodForecast = z.object({
  city: z.string().min(2),
  days: z.number().int().min(1).max(7).default(3),
  unit: z.enum(['c', 'f']).optional(),
});
const valibotForecast = toStandardJsonSchema(
  v.object({
    city: v.pipe(v.string(), v.minLength(2)),
    days: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(7)), 3),
    unit: v.optional(v.picklist(['c', 'f'])),
  }),
);
const arkForecast = type({ city: 'string >= 2', days: ['1 <= number.integer <= 7', '=', 3], 'unit?': "'c' | 'f'" });

const zodUpper = z.object({ word: z.string().transform((s) => s.toUpperCase()) });
const zodAsync = z.object({ code: z.string().refine(async (s) => s === 'open', { message: 'is not the code' }) });
const zodOutput = z.object({ city: z.string(), high: z.number() });

@Injectable()
class Forecasts {
  @Tool({ parameters: zodForecast })
  zod_forecast(args: z.infer<typeof zodForecast>, @Ctx() ctx: Context): string {
    return `${args.city} ${args.days} ${args.unit ?? '-'} ${typeof ctx.signal}`;
  }

  @Tool({ parameters: valibotForecast })
  valibot_forecast(@Args() args: StandardOutput<typeof valibotForecast>): string {
    return `${args.city} ${args.days} ${args.unit ?? '-'}`;
  }

  @Tool({ parameters: arkForecast })
  ark_forecast(args: typeof arkForecast.infer): string {
    return `${args.city} ${args.days} ${args.unit ?? '-'}`;
  }

  @Tool({ parameters: zodUpper })
  shout(args: z.infer<typeof zodUpper>): string {
    return args.word;
  }

  @Tool({ parameters: zodAsync })
  unlock(args: z.infer<typeof zodAsync>): string {
    return `unlocked with ${args.code}`;
  }

  @Tool({ parameters: { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] } })
  plain(args: { n: number }): number {
    return args.n * 2;
  }

  @Tool({ parameters: z.object({ city: z.string() }), outputSchema: zodOutput })
  weather(args: { city: string }): unknown {
    return args.city === 'Nowhere' ? { city: args.city, high: 'hot' } : { city: args.city, high: 21, source: 'internal' };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'standard', version: '1.0.0' })], providers: [Forecasts] })
class StandardModule {}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0]).text;

describe('@Tool({ parameters }) with a Standard Schema (zod, valibot, arktype)', () => {
  it('advertises the JSON Schema of the input side: defaults shown, optional fields not required', async () => {
    const client = await createTestClient(StandardModule);
    try {
      const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t]));
      expect(tools.zod_forecast.inputSchema).toEqual({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 2 },
          days: { default: 3, type: 'integer', minimum: 1, maximum: 7 },
          unit: { type: 'string', enum: ['c', 'f'] },
        },
        required: ['city'],
      });
      expect(tools.valibot_forecast.inputSchema).toEqual({
        type: 'object',
        properties: {
          city: { type: 'string', minLength: 2 },
          days: { type: 'integer', minimum: 1, maximum: 7, default: 3 },
          unit: { type: 'string', enum: ['c', 'f'] },
        },
        required: ['city'],
      });
      expect(tools.ark_forecast.inputSchema).toMatchObject({
        type: 'object',
        properties: { city: { type: 'string', minLength: 2 }, days: { type: 'integer', minimum: 1, maximum: 7 } },
        required: ['city'],
      });
      expect(tools.plain.inputSchema).toEqual({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
      expect(tools.weather.outputSchema).toEqual({
        type: 'object',
        properties: { city: { type: 'string' }, high: { type: 'number' } },
        required: ['city', 'high'],
        additionalProperties: false,
      });
    } finally {
      await client.close();
    }
  });

  it('passes the parsed output (defaults applied) to an undecorated first parameter or @Args(), beside @Ctx()', async () => {
    const client = await createTestClient(StandardModule);
    try {
      expect(text(await client.callTool({ name: 'zod_forecast', arguments: { city: 'Oslo' } }))).toBe('Oslo 3 - object');
      expect(text(await client.callTool({ name: 'valibot_forecast', arguments: { city: 'Oslo', unit: 'f' } }))).toBe('Oslo 3 f');
      expect(text(await client.callTool({ name: 'ark_forecast', arguments: { city: 'Oslo', days: 5 } }))).toBe('Oslo 5 -');
      expect(text(await client.callTool({ name: 'shout', arguments: { word: 'hey' } }))).toBe('HEY');
      expect(text(await client.callTool({ name: 'plain', arguments: { n: 4 } }))).toBe('8');
    } finally {
      await client.close();
    }
  });

  it("refuses invalid arguments with the library's issues, each with its path", async () => {
    const client = await createTestClient(StandardModule);
    try {
      const zod = await client.callTool({ name: 'zod_forecast', arguments: { city: 'O', days: 9 } });
      expect(zod.isError).toBe(true);
      expect(text(zod)).toBe(
        'Invalid arguments for tool zod_forecast: city: Too small: expected string to have >=2 characters; days: Too big: expected number to be <=7',
      );
      const valibot = await client.callTool({ name: 'valibot_forecast', arguments: { city: 'O', days: 9 } });
      expect(text(valibot)).toBe(
        'Invalid arguments for tool valibot_forecast: city: Invalid length: Expected >=2 but received 1; days: Invalid value: Expected <=7 but received 9',
      );
      const ark = await client.callTool({ name: 'ark_forecast', arguments: { city: 'O', days: 9 } });
      expect(text(ark)).toBe('Invalid arguments for tool ark_forecast: city: must be at least length 2 (was 1); days: must be at most 7 (was 9)');
      const plain = await client.callTool({ name: 'plain', arguments: { n: 1.5 } });
      expect(text(plain)).toBe('Invalid arguments for tool plain: n: must be an integer');
    } finally {
      await client.close();
    }
  });

  it('awaits a schema with asynchronous rules', async () => {
    const client = await createTestClient(StandardModule);
    try {
      expect(text(await client.callTool({ name: 'unlock', arguments: { code: 'open' } }))).toBe('unlocked with open');
      const refused = await client.callTool({ name: 'unlock', arguments: { code: 'shut' } });
      expect(refused.isError).toBe(true);
      expect(text(refused)).toBe('Invalid arguments for tool unlock: code: is not the code');
      expect(text(await client.callTool({ name: 'unlock', arguments: { code: 'open' } }))).toBe('unlocked with open');
    } finally {
      await client.close();
    }
  });

  it('checks structuredContent with a Standard Schema outputSchema', async () => {
    const client = await createTestClient(StandardModule);
    try {
      // zod's output is sent: the key its object strips is not in structuredContent (the advertised output side says
      // additionalProperties: false, and the SDK client checks structuredContent against it).
      const good = await client.callTool({ name: 'weather', arguments: { city: 'Oslo' } });
      expect(good.structuredContent).toEqual({ city: 'Oslo', high: 21 });
      expect(good.content).toEqual([{ type: 'text', text: '{"city":"Oslo","high":21}' }]);
      const bad = await client.callTool({ name: 'weather', arguments: { city: 'Nowhere' } });
      expect(bad.isError).toBe(true);
      expect(text(bad)).toBe("Tool 'weather' returned output that does not match its output schema: high: Invalid input: expected number, received string");
    } finally {
      await client.close();
    }
  });
});

describe('@Tool({ parameters }) at bootstrap', () => {
  it('names the adapter a valibot schema without JSON Schema support needs', async () => {
    @Injectable()
    class Bare {
      @Tool({ parameters: v.object({ city: v.string() }) })
      bare(args: { city: string }): string {
        return args.city;
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'bare', version: '1.0.0' })], providers: [Bare] })
    class BareModule {}
    const failure = await createTestClient(BareModule).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(BootstrapError);
    expect(failure).toMatchObject({
      code: 'INVALID_SCHEMA',
      message:
        "Cannot build tool 'bare' (Bare.bare): the valibot schema of @Tool({ parameters }) cannot be described as JSON Schema: it does not implement the Standard JSON Schema interface (~standard.jsonSchema).\n" +
        "Fix: wrap the schema with toStandardJsonSchema() from '@valibot/to-json-schema' (npm install @valibot/to-json-schema).",
    });
  });

  it('names the tool, the side and the cause when the library cannot convert the schema', async () => {
    @Injectable()
    class Dated {
      @Tool({ parameters: z.object({ when: z.date() }) })
      dated(args: { when: Date }): string {
        return args.when.toISOString();
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'dated', version: '1.0.0' })], providers: [Dated] })
    class DatedModule {}
    await expect(createTestClient(DatedModule)).rejects.toMatchObject({
      code: 'INVALID_SCHEMA',
      message:
        "Cannot build tool 'dated' (Dated.dated): the zod schema of @Tool({ parameters }) cannot be converted to JSON Schema: Date cannot be represented in JSON Schema\n" +
        'Fix: use types JSON Schema can express (a string with a format for a date, a number for a bigint; a transform only where its input is described, not in an output schema), or give a plain JSON Schema.',
    });

    @Injectable()
    class Morphed {
      @Tool({ outputSchema: z.object({ n: z.string().transform(Number) }) })
      morphed(): object {
        return { n: '1' };
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'morphed', version: '1.0.0' })], providers: [Morphed] })
    class MorphedModule {}
    await expect(createTestClient(MorphedModule)).rejects.toMatchObject({
      code: 'INVALID_SCHEMA',
      message: expect.stringMatching(/^Cannot build tool 'morphed' \(Morphed\.morphed\): the zod schema of @Tool\(\{ outputSchema \}\) cannot be converted to JSON Schema: Transforms cannot be represented in JSON Schema\n/),
    });
  });

  it('refuses parameters given with inputSchema', async () => {
    @Injectable()
    class Both {
      @Tool({ parameters: z.object({ a: z.string() }), inputSchema: { type: 'object' } })
      both(args: { a: string }): string {
        return args.a;
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'both', version: '1.0.0' })], providers: [Both] })
    class BothModule {}
    await expect(createTestClient(BothModule)).rejects.toMatchObject({
      code: 'INVALID_OPTION',
      message:
        "Cannot build tool 'both' (Both.both): @Tool() gives both parameters and inputSchema, two sources for one input schema.\n" +
        'Fix: keep one: parameters (a Standard Schema such as z.object({ ... }), or a JSON Schema) or inputSchema (a JSON Schema used verbatim).',
    });
  });
});
