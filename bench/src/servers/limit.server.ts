import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { limitServerFactory } from '../systems/limit';

serveStdio(limitServerFactory(Number(process.argv[2] ?? 0)));
