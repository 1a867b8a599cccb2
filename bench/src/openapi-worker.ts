import 'reflect-metadata';
import { McpFactory, McpModule, Module } from 'mcp-reflect';
import { openApiDocument } from './openapi-document';

/** What the parent asks of one fresh process: bootstraps of a document of `operations` operations. */
export interface OpenApiJob {
  readonly operations: number;
  readonly reps: number;
}

/**
 * (o) in a process of its own: `reps` bootstraps (`McpFactory.create()` to a ready application) of a server
 * whose components all come from `McpModule.fromOpenApi()` on the synthetic document (an object: no file or
 * network read), after one uncounted bootstrap that loads the modules (the $ref parser among them). ms each.
 */
async function bootstraps(job: OpenApiJob): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i <= job.reps; i++) {
    const document = openApiDocument(job.operations);
    @Module({ imports: [McpModule.forRoot({ name: 'bench', version: '1.0.0' }), McpModule.fromOpenApi({ namespace: 'api', document, baseUrl: 'http://127.0.0.1:9' })] })
    class OpenApiModule {}
    const started = performance.now();
    const app = await McpFactory.create(OpenApiModule);
    const elapsed = performance.now() - started;
    const served = app.inspect().tools.length;
    await app.close();
    if (served !== job.operations) throw new Error(`the document's ${job.operations} operations gave ${served} tools`);
    if (i > 0) samples.push(elapsed);
  }
  return samples;
}

process.once('message', (job: OpenApiJob) => {
  bootstraps(job).then(
    (samples) => process.send!({ samples }, () => process.exit(0)),
    (error: unknown) => process.send!({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () => process.exit(1)),
  );
});
