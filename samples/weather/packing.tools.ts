import { Context, Injectable, Param, Scope, Tool, ToolError } from 'mcp-reflect';
import { ConfigService } from './config.module';
import { GeoService } from './geo.service';
import { Units } from './weather.dto';

/**
 * Request-scoped: a fresh instance per call, built with that call's Context, so per-request state (the
 * notes below) can never leak between concurrent calls.
 */
@Injectable({ scope: Scope.REQUEST })
export class PackingTools {
  private readonly notes: string[] = [];

  constructor(
    private readonly geo: GeoService,
    private readonly config: ConfigService,
    private readonly context: Context,
  ) {}

  @Tool({ description: 'Suggest what to pack for a trip to a city', annotations: { readOnlyHint: true } })
  async packingList(
    @Param('city', { description: 'City name, e.g. Reykjavik' }) city: string,
    @Param('nights', { type: 'integer', default: 3, schema: { minimum: 1, maximum: 30 } }) nights: number,
  ): Promise<{ items: string[]; notes: string[]; requestId: string }> {
    const place = this.geo.locate(city);
    if (!place) throw new ToolError(`Unknown city '${city}': try Paris, London, Tokyo or Reykjavik.`);
    const items = [`${Math.min(nights + 1, 7)} shirts`, 'toothbrush'];
    if (Math.abs(place.lat) > 50) {
      items.push('warm jacket');
      this.note(`${city} is far north: packed a warm jacket`);
    }
    if (nights > 7) this.note('long trip: plan a laundry day');
    await this.context.log.info(`packing for ${nights} night(s) in ${city}`);
    const unit = this.config.defaultUnits === Units.Imperial ? '°F' : '°C';
    this.note(`temperatures will be shown in ${unit}`);
    return { items, notes: this.notes, requestId: String(this.context.requestId) };
  }

  private note(text: string): void {
    this.notes.push(text);
  }
}
