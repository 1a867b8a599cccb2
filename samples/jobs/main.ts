import 'reflect-metadata';
import { McpFactory } from 'mcp-reflect';
import { JobsModule } from './jobs.module';

// HTTP on PORT (default 3000). With REDIS_URL, start several of these, and `npx mcp-reflect worker
// samples/jobs/jobs.module.ts` for workers that serve nothing and only run tasks.
async function main(): Promise<void> {
  const app = await McpFactory.create(JobsModule);
  await app.listen({ transport: 'http', port: Number(process.env.PORT ?? 3000) });
  console.error(`jobs MCP server on ${await app.getUrl()}${process.env.REDIS_URL ? ' (tasks and state on Redis)' : ''}`);
  process.once('SIGINT', () => void app.close().then(() => process.exit(0)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
