import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { CalculatorModule } from './calculator.module';

async function main(): Promise<void> {
  const app = await McpFactory.create(CalculatorModule);
  await app.listen({ transport: 'stdio' });
  console.error('calculator MCP server ready on stdio');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
