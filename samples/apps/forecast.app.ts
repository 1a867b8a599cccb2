import { Injectable, Param, Tool, ToolResult, UiResource, text } from 'mcp-reflect';
import { FORECAST_VIEW_HTML } from './forecast.view';

const VIEW = 'ui://forecast/view';
const SKIES = ['sunny', 'cloudy', 'showers', 'windy', 'clear'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday'];

/** One day of the (made-up, deterministic) forecast. */
export interface ForecastDay {
  day: string;
  sky: string;
  high: number;
  low: number;
}

/**
 * An MCP App: the `forecast` tool answers with text (what every client shows) and structured content, and
 * names the `ui://forecast/view` view that MCP Apps hosts render its result in.
 */
@Injectable()
export class ForecastApp {
  @UiResource(VIEW, { name: 'forecast-view', title: 'Forecast view', description: 'A table of the forecast days.', prefersBorder: true })
  view(): string {
    return FORECAST_VIEW_HTML;
  }

  @Tool({ description: 'Three-day weather forecast for a city', ui: VIEW })
  forecast(@Param('city', { description: 'City name, e.g. Lisbon' }) city: string): ToolResult {
    const days = forecastFor(city);
    const summary = days.map((d) => `${d.day} ${d.sky} ${d.high}°/${d.low}°`).join(', ');
    return new ToolResult({ content: [text(`Forecast for ${city}: ${summary}`)], structuredContent: { city, days } });
  }

  // Only the view calls this one (a refresh button, say): hosts keep it out of the model's tool list.
  @Tool({ name: 'forecast_day', description: 'One day of the forecast', ui: { resourceUri: VIEW, visibility: ['app'] } })
  day(@Param('city') city: string, @Param('index', { type: 'integer', schema: { minimum: 0, maximum: 2 } }) index: number): ForecastDay {
    return forecastFor(city)[index]!;
  }
}

/** The same city always gets the same forecast, so the sample (and its specs) are reproducible. */
export function forecastFor(city: string): ForecastDay[] {
  let seed = [...city.toLowerCase()].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) % 9973, 7);
  return DAYS.map((day) => {
    seed = (seed * 17 + 11) % 9973;
    const high = 12 + (seed % 15);
    return { day, sky: SKIES[seed % SKIES.length]!, high, low: high - 4 - (seed % 5) };
  });
}
