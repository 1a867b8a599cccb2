import { APP_GUARD, McpModule, Module } from 'mcp-reflect';
import { ResponseCacheInterceptor, TimingInterceptor } from 'mcp-reflect/builtins';
import { ConfigModule, ConfigService } from './config.module';
import { GeoService } from './geo.service';
import { PackingTools } from './packing.tools';
import { RoleGuard } from './weather.guards';
import { WeatherAdminTools, WeatherTools } from './weather.tools';

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
        // One JSON line per call on stderr: method, tool, duration, outcome (never the arguments).
        interceptors: [new TimingInterceptor()],
      }),
    }),
  ],
  providers: [
    GeoService,
    WeatherTools,
    PackingTools,
    WeatherAdminTools,
    // One forecast cache, used by @UseInterceptors(ResponseCacheInterceptor) and cleared by the admin tool.
    { provide: ResponseCacheInterceptor, useValue: new ResponseCacheInterceptor({ ttlMs: 60_000, maxEntries: 500 }) },
    // Every component is checked by RoleGuard; only those marked @RequireRole(...) need a role.
    { provide: APP_GUARD, useClass: RoleGuard },
  ],
})
export class WeatherModule {}
