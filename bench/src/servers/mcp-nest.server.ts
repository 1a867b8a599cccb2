import { NestFactory } from '@nestjs/core';
import { StdioTransport } from '@rekog/mcp-nest';
import { nestModule, nestStrategy } from '../systems/mcp-nest';

// stdout is the protocol: Nest and mcp-nest logging are off.
void NestFactory.createMicroservice(nestModule(Number(process.argv[2] ?? 0)), {
  strategy: nestStrategy([new StdioTransport()]),
  logger: false,
}).then((app) => app.listen());
