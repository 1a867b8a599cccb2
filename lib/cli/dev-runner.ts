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

/** How long the application may take to close when dev stops it; then the process exits all the same. */
const CLOSE_MS = 3_000;

let opened: Awaited<ReturnType<typeof openApplication>> | undefined;
let ending = false;

/**
 * dev ends this process with SIGTERM (or by going away: the IPC channel closes, dev was killed): sessions are
 * closed, calls drained (a Nest application closed), proxied remotes ended, at most CLOSE_MS; then it exits, and
 * its exit ends the process groups of stdio remotes still there (lib/proxy/stdio-group-transport.ts). Asked while
 * the application is still starting, it ends once the start is over (or failed), within the same bound.
 */
function end(): void {
  if (ending) return;
  ending = true;
  setTimeout(() => process.exit(0), CLOSE_MS).unref();
  if (opened) closeAndExit(opened);
}

function closeAndExit(application: NonNullable<typeof opened>): void {
  // Its lists are about to change (dev restarts it with the edited code): the clients listening for changes (a
  // 2026-07-28 client's subscriptions/listen, a 2025 session's stream) are told so before their streams end, so
  // that one like the Inspector marks its lists stale and lists them again from the next server.
  for (const kind of ['tools', 'prompts', 'resources'] as const) application.registries.hub.listChanged(kind);
  void application.close().finally(() => process.exit(0));
}

async function run(job: DevJob): Promise<void> {
  const root = loadRootModule(job.entry, job.moduleName);
  const file = job.metadata ?? findMetadataFile(job.entry);
  const metadata = file ? loadMetadataFile(file, job.metadata !== undefined) : undefined;
  opened = await openApplication(root, job.entry, metadata ? { metadata: metadata as never } : {});
  if (ending) return closeAndExit(opened);
  const { app } = opened;
  await app.listen({ transport: 'http', host: job.host, port: job.port, stateless: job.stateless });
  if (!ending) process.send!({ url: await app.getUrl() });
}

// Ctrl-C in a terminal reaches this process too (dev's process group): it ends the same way.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, end);
process.once('disconnect', end);
process.once('message', (job: DevJob) => {
  run(job).catch((error: unknown) => {
    if (ending) return process.exit(1);
    const message = error instanceof Error && (error.name === 'BootstrapError' || error.name === 'CliError') ? error.message : (error instanceof Error ? error.stack : undefined) ?? describe(error);
    process.send!({ error: message }, () => process.exit(1));
  });
});
