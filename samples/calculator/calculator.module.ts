import { McpModule, Module } from 'mcp-reflect';
import { CalculatorTools } from './calculator.tools';

@Module({
  imports: [McpModule.forRoot({ name: 'calculator', version: '1.0.0', instructions: 'Arithmetic tools.' })],
  providers: [CalculatorTools],
})
export class CalculatorModule {}
