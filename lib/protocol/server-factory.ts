import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  type CallToolResult,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import type { ServerLogger, ToolInvoker, ToolRegistry } from '../tools';
import { SdkRequestChannel } from './request-channel';

/** What the protocol layer needs from the application: identity and the compiled tool registry. */
export interface ProtocolApplication {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string;
  readonly tools: ToolRegistry;
  readonly invoker: ToolInvoker;
  readonly logger: ServerLogger;
}

export type ServerFactory = () => Server;

/**
 * Returns the cheap per-connection factory: a low-level SDK `Server` whose handlers only read what
 * bootstrap compiled. stdio and the in-memory transport call it once per connection (and the SDK once more
 * for a `server/discover` probe).
 */
export function createServerFactory(app: ProtocolApplication): ServerFactory {
  const tools = app.tools.list() as unknown as Tool[];
  const capabilities = { tools: { listChanged: false }, logging: {} };

  return () => {
    const server = new Server(
      { name: app.info.name, version: app.info.version, ...(app.info.title ? { title: app.info.title } : {}) },
      { capabilities, ...(app.instructions ? { instructions: app.instructions } : {}) },
    );

    server.setRequestHandler('tools/list', () => ({ tools }));

    server.setRequestHandler('tools/call', async (request, ctx: ServerContext) => {
      const { name, arguments: args, _meta } = request.params;
      const tool = app.tools.get(name);
      if (!tool) {
        // Spec 2025-11-25 server/tools#error-handling: unknown tools are a protocol error (-32602).
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
      }
      const channel = new SdkRequestChannel(ctx, _meta?.progressToken as string | number | undefined, app.logger);
      const outcome = await app.invoker.call(tool, args, channel);
      return server.projectCallToolResult(outcome as CallToolResult, tool.descriptor.outputSchema);
    });

    return server;
  };
}

/** Errors thrown by user code that must reach the client as JSON-RPC errors, not `isError` results. */
export function isProtocolError(error: unknown): boolean {
  return error instanceof ProtocolError;
}
