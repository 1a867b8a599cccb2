import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { mcpServerFactory } from '../systems/mcp-server';

serveStdio(mcpServerFactory(Number(process.argv[2] ?? 0)));
