import 'reflect-metadata';
import { BootstrapErrorCode, Injectable, McpModule, Module, Param, Tool } from 'mcp-reflect';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { bootstrapFailure } from '../support/bootstrap';

const later = () => 3;

@Injectable()
class Forecasts {
  // docs/nestjs.md's first sample: no annotation, the default says number.
  @Tool({ description: 'The forecast for a city' })
  forecast(@Param('city') city: string, @Param('days', { optional: true }) days = 3): string {
    return `${days} sunny days in ${city}`;
  }

  @Tool()
  greet(@Param() name = 'World', @Param() verbose = false, @Param() times = 1): string {
    const line = verbose ? `Hello, dear ${name}` : `Hello ${name}`;
    return Array.from({ length: times }, () => line).join(' / ');
  }

  // A type stated in the options wins over the default's.
  @Tool()
  count(@Param({ type: 'integer' }) step = 2): number {
    return step;
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'literal-defaults', version: '1.0.0' })], providers: [Forecasts] })
class ForecastModule {}

const text = (result: { content?: unknown }) => ((result.content as { text: string }[])[0] ?? { text: '' }).text;

/**
 * An un-annotated parameter with a literal default is reflected as `Object` (tsc) or as nothing (swc, which
 * compiles this spec): its type is the default's, and the default is advertised (issue 39, item 6).
 */
describe('parameters typed by their literal default (days = 3)', () => {
  let client: TestClient;
  let schemas: Record<string, unknown>;
  beforeAll(async () => {
    client = await createTestClient(ForecastModule);
    schemas = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
  });
  afterAll(() => client?.close());

  it('advertises the default’s type and the default, not required', () => {
    expect(schemas.forecast).toEqual({
      type: 'object',
      properties: { city: { type: 'string' }, days: { type: 'number', default: 3 } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(schemas.greet).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', default: 'World' },
        verbose: { type: 'boolean', default: false },
        times: { type: 'number', default: 1 },
      },
      additionalProperties: false,
    });
    expect(schemas.count).toEqual({
      type: 'object',
      properties: { step: { type: 'integer', default: 2 } },
      additionalProperties: false,
    });
  });

  it('accepts the call without the argument (the method gets the default) and with it', async () => {
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo' } }))).toBe('3 sunny days in Oslo');
    expect(text(await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 5 } }))).toBe('5 sunny days in Oslo');
    expect(text(await client.callTool({ name: 'greet', arguments: {} }))).toBe('Hello World');
    expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada', verbose: true, times: 2 } }))).toBe('Hello, dear Ada / Hello, dear Ada');
    expect(text(await client.callTool({ name: 'count', arguments: {} }))).toBe('2');
  });

  it('validates the argument against the default’s type', async () => {
    const wrong = await client.callTool({ name: 'forecast', arguments: { city: 'Oslo', days: 'many' } });
    expect(wrong.isError).toBe(true);
    expect(text(wrong)).toBe('Invalid arguments for tool forecast: days: must be a number');
    const half = await client.callTool({ name: 'count', arguments: { step: 1.5 } });
    expect(half.isError).toBe(true);
    expect(text(half)).toBe('Invalid arguments for tool count: step: must be an integer');
  });
});

describe('a default that is not a literal still needs a type', () => {
  const cause =
    `Cause: TypeScript erases interfaces, unions, type aliases, 'any', mixed enums and type-only imports (import type) ` +
    `to Object at runtime, so there is nothing to build a schema from.\n`;
  const fix =
    `Fix: state the type with @Param('days', { type: ... }) (e.g. [String], [ItemDto], 'integer', a DTO class), ` +
    `the allowed values with { enum: MyEnum }, or a JSON Schema with { schema: { ... } }.`;

  it('refuses `days = later()` (nothing reflected) with the message of an unreflectable type', async () => {
    class Tools {
      @Tool()
      forecast(@Param('days') days = later()) {
        return days;
      }
    }
    const error = await bootstrapFailure(Tools);
    expect(error.code).toBe(BootstrapErrorCode.UnreflectableType);
    expect(error.message).toBe(
      `Cannot build the input schema of tool 'forecast' (Tools.forecast): the type of parameter #0 'days' was reflected as nothing (no type was emitted).\n` +
        cause +
        fix,
    );
  });

  it('refuses a parameter reflected as Object whose default is no literal', async () => {
    class Tools {
      @Tool()
      forecast(@Param('days') days: any = later()) {
        return days;
      }
    }
    const error = await bootstrapFailure(Tools);
    expect(error.code).toBe(BootstrapErrorCode.UnreflectableType);
    expect(error.message).toBe(
      `Cannot build the input schema of tool 'forecast' (Tools.forecast): the type of parameter #0 'days' was reflected as Object.\n` + cause + fix,
    );
  });
});
