import { Injectable, Module } from 'mcp-reflect';
import { Units } from './weather.dto';

/** Settings from the environment, read once at bootstrap. */
@Injectable()
export class ConfigService {
  readonly serverName = process.env.WEATHER_SERVER_NAME ?? 'weather';
  readonly defaultUnits = process.env.WEATHER_UNITS === Units.Imperial ? Units.Imperial : Units.Metric;
  /** The caller's role on stdio (see RoleGuard): 'traveller' unless WEATHER_ROLE says otherwise. */
  readonly role = process.env.WEATHER_ROLE ?? 'traveller';
}

@Module({ providers: [ConfigService], exports: [ConfigService] })
export class ConfigModule {}
