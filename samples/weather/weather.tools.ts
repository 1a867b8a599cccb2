import { Args, Context, Ctx, Injectable, Tool, ToolError, UseGuards, UseInterceptors } from 'mcp-reflect';
import { ResponseCacheInterceptor } from 'mcp-reflect/builtins';
import { GeoService } from './geo.service';
import { RequireRole, WeatherRateLimit } from './weather.guards';
import { Forecast, ForecastQuery, TripPlan, Units } from './weather.dto';

/** A deterministic "forecast" from latitude, so the sample needs no network. */
function temperatureAt(lat: number, day: number): number {
  return Math.round(30 - Math.abs(lat) / 2 + (day % 3));
}

/**
 * Rate-limited per session (WeatherRateLimit). Forecasts are cached for a minute (read-only tool: same arguments, same answer); the cache is the
 * ResponseCacheInterceptor provider of WeatherModule, which WeatherAdminTools can clear.
 */
@Injectable()
@UseGuards(WeatherRateLimit)
export class WeatherTools {
  constructor(private readonly geo: GeoService) {}

  @UseInterceptors(ResponseCacheInterceptor)
  @Tool({ description: 'Forecast for a city', output: Forecast, annotations: { readOnlyHint: true } })
  async forecast(@Args() query: ForecastQuery, @Ctx() ctx: Context): Promise<Forecast> {
    const place = this.geo.locate(query.city);
    if (!place) throw new ToolError(`Unknown city '${query.city}': try Paris, London, Tokyo or Reykjavik.`);
    const days = query.days ?? 1;
    const units = query.units ?? Units.Metric;
    await ctx.log.info(`forecasting ${days} day(s) for ${query.city}`);
    let high = -Infinity;
    let low = Infinity;
    for (let day = 0; day < days; day++) {
      const t = temperatureAt(place.lat, day);
      high = Math.max(high, t);
      low = Math.min(low, t - 8);
      await ctx.reportProgress(day + 1, days);
    }
    const convert = (c: number) => (units === Units.Imperial ? Math.round((c * 9) / 5 + 32) : c);
    return { city: query.city, high: convert(high), low: convert(low), units };
  }

  @Tool({ description: 'Check a multi-city trip and summarise it' })
  planTrip(@Args() plan: TripPlan): { summary: string; nights: number; startsOn: string; unknownCities: string[] } {
    const nights = plan.stops.reduce((total, stop) => total + stop.nights, 0);
    const unknownCities = plan.stops.filter((s) => !this.geo.locate(s.city)).map((s) => s.city);
    return {
      summary: `${plan.stops.map((s) => s.city).join(' → ')} for ${plan.email}`,
      nights,
      startsOn: plan.start.toISOString().slice(0, 10),
      unknownCities,
    };
  }
}

/** Tools for operators only: hidden from (and unknown to) callers without the admin role. */
@Injectable()
@RequireRole('admin')
export class WeatherAdminTools {
  constructor(private readonly cache: ResponseCacheInterceptor) {}

  @Tool({ name: 'clearForecastCache', description: 'Forget every cached forecast' })
  clear(): string {
    const cleared = this.cache.size;
    this.cache.clear();
    return `Cleared ${cleared} cached forecast(s).`;
  }
}
