import 'reflect-metadata';
import { IsEnum, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { Args, Ctx, Context, Injectable, McpModule, Module, Param, Tool, ToolError } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

enum Units { Metric = 'metric', Imperial = 'imperial' }
class Forecast { @IsString() city!: string; @IsInt() high!: number; }
@Injectable() class GeoService { locate(_city: string) { return { lat: 48.85, lon: 2.35 }; } }
class ForecastQuery {
  @IsString() @Length(1, 80) city!: string;
  @IsOptional() @IsInt() @Min(1) @Max(14) days?: number;
  @IsOptional() @IsEnum(Units) units?: Units;
}
@Injectable()
class WeatherTools {
  constructor(private readonly geo: GeoService) {}
  @Tool({ description: 'Add two numbers' })
  add(@Param() a: number, @Param('b', { description: 'second addend' }) b: number): number { return a + b; }
  @Tool({ description: 'Forecast for a city', output: Forecast })
  async forecast(@Args() query: ForecastQuery, @Ctx() ctx: Context): Promise<Forecast> {
    await ctx.reportProgress(1, 2);
    if (query.city === 'Nowhere') throw new ToolError('No such city');
    this.geo.locate(query.city);
    return { city: query.city, high: (query.days ?? 1) * 10 };
  }
}
@Module({ imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0' })], providers: [GeoService, WeatherTools] })
class AppModule {}

describe('smoke', () => {
  it.each(['2025-11-25', '2026-07-28'] as const)('lists and calls tools (%s)', async (protocolVersion) => {
    const client = await createTestClient(AppModule, { protocolVersion });
    const { tools } = await client.listTools();
    console.log(JSON.stringify(tools, null, 1));
    console.log(JSON.stringify(await client.callTool({ name: 'add', arguments: { a: 1, b: '2' } })));
    console.log(JSON.stringify(await client.callTool({ name: 'forecast', arguments: { city: 'Paris', days: 3 } })));
    console.log(JSON.stringify(await client.callTool({ name: 'forecast', arguments: { city: '', days: 30, units: 'x' } })));
    console.log(JSON.stringify(await client.callTool({ name: 'forecast', arguments: { city: 'Nowhere' } })));
    await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toThrow(/Unknown tool/);
    await client.close();
  });
});
