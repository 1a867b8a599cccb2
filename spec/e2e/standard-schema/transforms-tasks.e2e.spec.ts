import 'reflect-metadata';
import { type } from 'arktype';
import { Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';
import * as v from 'valibot';
import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as z from 'zod';
import { legacyRequest } from '../../tasks/legacy-client';

const zodShape = z.object({ city: z.string().min(2), unit: z.enum(['c', 'f']).default('c') });
const valibotShape = toStandardJsonSchema(v.object({ city: v.pipe(v.string(), v.minLength(2)), unit: v.optional(v.picklist(['c', 'f']), 'c') }));
const arkShape = type({ city: 'string >= 2', unit: "'c' | 'f'" });

@Injectable()
class Weather {
  @Tool({ parameters: zodShape, task: 'optional' })
  zod_forecast(args: z.infer<typeof zodShape>): string {
    return `${args.city} in ${args.unit}`;
  }

  @Tool({ parameters: valibotShape, task: 'optional' })
  valibot_forecast(args: { city: string; unit: string }): string {
    return `${args.city} in ${args.unit}`;
  }

  @Tool({ parameters: arkShape, task: 'optional' })
  ark_forecast(args: typeof arkShape.infer): string {
    return `${args.city} in ${args.unit}`;
  }

  @Tool({ task: 'optional' })
  zod_param(@Param('city', { schema: z.string().min(2) }) city: string, @Param('unit', { schema: z.enum(['c', 'f']).default('c') }) unit: string): string {
    return `${city} in ${unit}`;
  }
}

const renamed = { args: { city: { name: 'town' }, unit: { hide: { value: 'f' } } } };

@Module({
  imports: [
    McpModule.forRoot({
      name: 'transformed',
      version: '1.0.0',
      logger: { error() {}, warn() {} },
      tasks: {},
      transforms: { tools: { zod_forecast: renamed, valibot_forecast: renamed, ark_forecast: renamed, zod_param: renamed } },
    }),
  ],
  providers: [Weather],
})
class TransformedModule {}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0]).text;
const TOOLS = ['zod_forecast', 'valibot_forecast', 'ark_forecast', 'zod_param'];

describe('Standard Schema tools under transforms and tasks', () => {
  it('advertises renamed and hidden arguments, maps the call back, and names issues with the served names', async () => {
    const client = await createTestClient(TransformedModule);
    try {
      const tools = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
      for (const name of TOOLS) {
        expect(tools[name]).toMatchObject({ type: 'object', properties: { town: { type: 'string', minLength: 2 } }, required: ['town'] });
        expect(Object.keys(tools[name].properties as object)).toEqual(['town']);
        expect(text(await client.callTool({ name, arguments: { town: 'Oslo' } }))).toBe('Oslo in f');
        const refused = await client.callTool({ name, arguments: { town: 'O' } });
        expect(refused.isError).toBe(true);
        expect(text(refused)).toMatch(new RegExp(`^Invalid arguments for tool ${name}: town: `));
      }
    } finally {
      await client.close();
    }
  });

  it('runs them as tasks', async () => {
    const client = await createTestClient(TransformedModule);
    try {
      for (const name of TOOLS) {
        const { task } = await legacyRequest(client, 'tools/call', { name, arguments: { town: 'Bergen' }, task: {} });
        const result = await legacyRequest(client, 'tasks/result', { taskId: task.taskId });
        expect(result.content).toEqual([{ type: 'text', text: 'Bergen in f' }]);
      }
    } finally {
      await client.close();
    }
  });
});
