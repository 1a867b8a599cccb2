import { openApplication } from './application';
import { describe, loadRootModule } from './load-entry';
import { findMetadataFile, loadMetadataFile } from './metadata-file';

/**
 * The process `mcp-reflect dev` restarts on every change: it loads the entry's root module (mcp-reflect's or a
 * Nest application's, see openApplication; with the generated types, as inspect does) and serves it over Streamable HTTP on the port dev gives it, then tells dev its URL
 * (IPC). A failure to start is reported the same way, and the process ends.
 */
interface DevJob {
  readonly entry: string;
  readonly moduleName?: string;
  readonly metadata?: string;
  readonly host: string;
  readonly port: number;
  readonly stateless: boolean;
}

async function run(job: DevJob): Promise<void> {
  const root = loadRootModule(job.entry, job.moduleName);
  const file = job.metadata ?? findMetadataFile(job.entry);
  const metadata = file ? loadMetadataFile(file, job.metadata !== undefined) : undefined;
  const opened = await openApplication(root, job.entry, metadata ? { metadata: metadata as never } : {});
  const { app } = opened;
  // dev ends this process with SIGTERM: sessions are closed, calls drained (a Nest application closed), then it exits.
  process.once('SIGTERM', () => void opened.close().finally(() => process.exit(0)));
  await app.listen({ transport: 'http', host: job.host, port: job.port, stateless: job.stateless });
  process.send!({ url: await app.getUrl() });
}

process.once('message', (job: DevJob) => {
  run(job).catch((error: unknown) => {
    const message = error instanceof Error && (error.name === 'BootstrapError' || error.name === 'CliError') ? error.message : (error instanceof Error ? error.stack : undefined) ?? describe(error);
    process.send!({ error: message }, () => process.exit(1));
  });
});
