import 'reflect-metadata';
import { Controller, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpFactory, McpModule as StandaloneMcpModule, Tool } from 'mcp-reflect';
import { McpModule } from 'mcp-reflect/nest';

/** Mistakes that mix a Nest application and mcp-reflect fail the bootstrap, naming what and where, with the fix. */
@Injectable()
class WeatherTools {
  @Tool()
  forecast(): string {
    return 'sunny';
  }
}

@Injectable()
class OtherWeatherTools {
  @Tool({ name: 'forecast' })
  predict(): string {
    return 'rainy';
  }
}

@Controller('tools')
class ToolController {
  @Tool()
  fromController(): string {
    return 'no';
  }
}

const quiet = { warnings: { unprovidedComponents: false } };

async function boot(module: new () => unknown): Promise<string> {
  try {
    const app = await NestFactory.createApplicationContext(module, { logger: false, abortOnError: false });
    await app.close();
    return 'booted';
  } catch (error) {
    return (error as Error).message;
  }
}

describe('mcp-reflect/nest bootstrap errors', () => {
  it('a component class provided by two modules', async () => {
    @Module({ providers: [WeatherTools] })
    class First {}
    @Module({ providers: [WeatherTools] })
    class Second {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1', http: false, ...quiet }), First, Second] })
    class App {}
    expect(await boot(App)).toMatch(/Cannot serve the components of WeatherTools: both First and Second provide it[\s\S]*Fix: provide WeatherTools in one module/);
  });

  it('two tools of the same name from different modules', async () => {
    @Module({ providers: [WeatherTools] })
    class Weather {}
    @Module({ providers: [OtherWeatherTools] })
    class OtherWeather {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1', http: false, ...quiet }), Weather, OtherWeather] })
    class App {}
    const message = await boot(App);
    expect(message).toContain("'forecast'");
    expect(message).toMatch(/WeatherTools\.forecast/);
    expect(message).toMatch(/OtherWeatherTools\.predict/);
  });

  it('a tool class that is also a Nest controller', async () => {
    @Module({ controllers: [ToolController] })
    class Mixed {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1', http: false, ...quiet }), Mixed] })
    class App {}
    expect(await boot(App)).toMatch(/Cannot serve the components of ToolController \(Mixed\): it is a Nest controller[\s\S]*Fix: keep the MCP components in a provider class/);
  });

  it('a component class that no Nest module provides', async () => {
    @Module({ providers: [WeatherTools] })
    class App {}
    @Module({ imports: [McpModule.forRoot({ name: 'x', version: '1', http: false }), App] })
    class Root {}
    const message = await boot(Root);
    expect(message).toMatch(/OtherWeatherTools(, ToolController)? ha(s|ve) MCP components .* but no Nest module provides/);
    expect(message).toContain('Fix: add OtherWeatherTools');
    expect(message).not.toMatch(/^Cannot serve the Nest application: WeatherTools/);
  });

  it("the standalone McpModule imported into a Nest application beside mcp-reflect/nest's", async () => {
    @Module({ imports: [StandaloneMcpModule.forRoot({ name: 'x', version: '1' }) as never, McpModule.forRoot({ name: 'x', version: '1', http: false, ...quiet })] })
    class App {}
    expect(await boot(App)).toMatch(/McpModule of 'mcp-reflect' \(the standalone server's\) is imported into it[\s\S]*Fix: import McpModule from 'mcp-reflect\/nest' only/);
  });

  it('a Nest module given to the standalone McpFactory', async () => {
    @Module({ providers: [WeatherTools] })
    class NestApp {}
    await expect(McpFactory.create(NestApp)).rejects.toThrow(/NestApp.*is a NestJS module[\s\S]*Fix: serve a Nest application's components from inside it, with McpModule.forRoot\(\) of 'mcp-reflect\/nest'/);
  });
});
