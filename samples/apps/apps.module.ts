import { McpModule, Module } from 'mcp-reflect';
import { ForecastApp } from './forecast.app';

@Module({
  imports: [McpModule.forRoot({ name: 'forecast-app', version: '1.0.0', instructions: 'A weather forecast with an MCP Apps view.' })],
  providers: [ForecastApp],
})
export class AppsModule {}
