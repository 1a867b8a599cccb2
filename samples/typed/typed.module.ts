import { McpModule, Module } from 'mcp-reflect';
import { TripTools } from './trip.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'typed-trips', version: '1.0.0' })],
  providers: [TripTools],
})
export class TypedModule {}
