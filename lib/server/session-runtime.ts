import type { Server } from '@modelcontextprotocol/server';
import type { CacheHint, McpAuth } from '../interfaces';
import type { InputRounds } from './input-required';
import type { ProtocolApplication } from './protocol-application';
import type { ChannelServices, Connection } from './request-channel';
import type { ConnectedServer } from './server-hub';
import type { TaskService } from './tasks/tasks-service';

/** What one session's handlers share: the application, its server, its session record. */
export interface SessionRuntime {
  readonly app: ProtocolApplication;
  readonly server: Server;
  readonly session: ConnectedServer;
  readonly rounds: InputRounds;
  readonly services: ChannelServices;
  /** The identity this connection was opened with (stdio, in memory); HTTP requests carry their own. */
  readonly auth?: McpAuth;
  /** The connection (stdio, in memory): its identity and id; empty over HTTP. */
  readonly connection: Connection;
  /** Runs task tools as tasks (present when some tool has `@Tool({ task })`). */
  readonly tasks?: TaskService;
  /** `forRoot({ cacheHints })`, checked once at bootstrap, per cacheable method. */
  readonly cacheHints?: Readonly<Record<string, CacheHint>>;
}
