import { McpModule, Module } from 'mcp-reflect';
import { GeoService } from './geo.service';
import { WeatherTools } from './weather.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'weather', version: '1.0.0', instructions: 'Forecasts and trip checks.' })],
  providers: [GeoService, WeatherTools],
})
export class WeatherModule {}
