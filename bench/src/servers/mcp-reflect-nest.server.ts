import { NestFactory } from '@nestjs/core';
import { McpService } from 'mcp-reflect/nest';
import { reflectNestModule } from '../systems/mcp-reflect-nest';

// A Nest application context (no HTTP server) served on stdio by its McpService; stdout is the protocol, so
// Nest's logger is off.
void NestFactory.createApplicationContext(reflectNestModule(Number(process.argv[2] ?? 0)), { logger: false }).then((context) =>
  context.get(McpService).listen({ transport: 'stdio' }),
);
