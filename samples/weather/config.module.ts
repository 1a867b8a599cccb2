import { Injectable, Module } from 'mcp-reflect';
import { Units } from './weather.dto';

/** Settings from the environment, read once at bootstrap. */
@Injectable()
export class ConfigService {
  readonly serverName = process.env.WEATHER_SERVER_NAME ?? 'weather';
  readonly defaultUnits = process.env.WEATHER_UNITS === Units.Imperial ? Units.Imperial : Units.Metric;
}

@Module({ providers: [ConfigService], exports: [ConfigService] })
export class ConfigModule {}
