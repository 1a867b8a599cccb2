import { McpModule, Module, type McpModuleOptions } from 'mcp-reflect';
import { RedisStateStore, RedisTaskQueue, RedisTaskStore } from 'mcp-reflect/redis';
import { CartTools } from './cart.tools';
import { RedisConnection, RedisModule } from './redis.connection';
import { ReportTools } from './report.tools';

/**
 * In memory by default. With REDIS_URL: tasks run on a durable queue that every instance's worker takes from
 * (a run whose process dies is run again by another), and `ctx.state` is shared by every instance.
 */
function options(redis: RedisConnection): McpModuleOptions {
  const base = { name: 'jobs', version: '1.0.0', instructions: 'A cart kept between your calls, and yearly reports run as tasks.' };
  if (!redis.client) return base;
  return {
    ...base,
    tasks: { store: new RedisTaskStore(redis.client, { prefix: 'jobs:' }), queue: new RedisTaskQueue({ connection: redis.queueConnection!, name: 'jobs' }) },
    state: { store: new RedisStateStore(redis.client, { prefix: 'jobs:' }) },
  };
}

@Module({
  imports: [RedisModule, McpModule.forRootAsync({ imports: [RedisModule], inject: [RedisConnection], useFactory: options })],
  providers: [CartTools, ReportTools],
})
export class JobsModule {}
