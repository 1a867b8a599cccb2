import { McpModule, Module } from 'mcp-reflect';
import { ConfigModule, ConfigService } from './config.module';
import { GeoService } from './geo.service';
import { PackingTools } from './packing.tools';
import { WeatherTools } from './weather.tools';

@Module({
  imports: [
    ConfigModule,
    // Options computed from another provider: awaited at bootstrap.
    McpModule.forRootAsync({
      imports: [ConfigModule],
      inject: [ConfigService],
      useFactory: (config: ConfigService) => ({
        name: config.serverName,
        version: '1.0.0',
        instructions: 'Forecasts, trip checks and packing lists.',
      }),
    }),
  ],
  providers: [GeoService, WeatherTools, PackingTools],
})
export class WeatherModule {}
