import { ProtocolError, ProtocolErrorCode, Server, type CallToolResult, type ServerContext } from '@modelcontextprotocol/server';
import type { CompletionRegistry, CompletionRef } from '../completions';
import { RequestError, ToolError } from '../errors';
import type { ElicitationForms, ServerLogger } from '../invocation';
import { InputRounds } from './input-required';
import type { PromptRegistry } from '../prompts';
import type { ResourceRegistry } from '../resources';
import type { ToolInvoker, ToolRegistry } from '../tools';
import { toWireError } from './error-mapping';
import { SdkRequestChannel, type ChannelServices } from './request-channel';
import type { SessionHub } from './session-hub';

/** What the protocol layer needs from the application: identity and the compiled registries. */
export interface ProtocolApplication {
  readonly info: { readonly name: string; readonly version: string; readonly title?: string };
  readonly instructions?: string;
  readonly tools: ToolRegistry;
  readonly resources: ResourceRegistry;
  readonly prompts: PromptRegistry;
  readonly completions: CompletionRegistry;
  readonly invoker: ToolInvoker;
  readonly logger: ServerLogger;
  readonly hub: SessionHub;
  readonly forms: ElicitationForms;
  /** HMAC key for multi-round-trip state; the same on every instance that may see a retry. */
  readonly stateSecret: string | Uint8Array;
}

/** Builds one SDK server per connection; `hub` reaches every live session. */
export type ServerFactory = (() => Server) & { readonly hub: SessionHub };

// Every capability is declared, so the catalogue can change at runtime (spec: a declared capability must be
// answered, possibly with an empty list).
const CAPABILITIES = {
  tools: { listChanged: true },
  resources: { subscribe: true, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
};

// One wire result per page, built once: pages are recomputed only when the catalogue changes.
const LIST_RESULTS = new WeakMap<object, Record<string, unknown>>();

function listResult(page: { items: readonly unknown[]; nextCursor?: string }, key: string): Record<string, unknown> {
  let result = LIST_RESULTS.get(page);
  if (!result) {
    result = { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    LIST_RESULTS.set(page, result);
  }
  return result;
}

/**
 * Returns the cheap per-connection factory: a low-level SDK `Server` whose handlers only read what
 * bootstrap compiled. stdio and the in-memory transport call it once per connection (and the SDK once more
 * for a `server/discover` probe).
 */
export function createServerFactory(app: ProtocolApplication): ServerFactory {
  app.tools.onChange(() => app.hub.listChanged('tools'));
  app.prompts.onChange(() => app.hub.listChanged('prompts'));
  app.resources.resources.onChange(() => app.hub.listChanged('resources'));
  app.resources.templates.onChange(() => app.hub.listChanged('resources'));

  const rounds = new InputRounds(app.stateSecret);
  const services: ChannelServices = {
    logger: app.logger,
    hub: app.hub,
    rounds,
    forms: app.forms,
    // A failed read inside a tool is the tool's answer to the model, not an unexpected error.
    readResource: (uri, channel) =>
      app.resources.read(uri, channel).catch((error: unknown) => {
        throw error instanceof RequestError ? new ToolError(error.message) : error;
      }),
  };

  const factory = () => {
    const server = new Server(
      { name: app.info.name, version: app.info.version, ...(app.info.title ? { title: app.info.title } : {}) },
      {
        capabilities: CAPABILITIES,
        requestState: { verify: rounds.verify },
        ...(app.instructions ? { instructions: app.instructions } : {}),
      },
    );
    const session = app.hub.open(server);
    const channel = (ctx: ServerContext, progressToken?: unknown, target?: string) =>
      new SdkRequestChannel(ctx, server, progressToken as string | number | undefined, services, target);
    const wire = <T>(work: () => Promise<T>): Promise<T> =>
      work().catch((error: unknown) => {
        throw toWireError(error);
      });

    server.setRequestHandler('tools/list', (request) =>
      wire(async () => listResult(app.tools.page(request.params?.cursor), 'tools') as never),
    );

    server.setRequestHandler('tools/call', async (request, ctx) => {
      const { name, arguments: args, _meta } = request.params;
      const tool = app.tools.get(name);
      if (!tool) {
        // Spec 2025-11-25 server/tools#error-handling: unknown tools are a protocol error (-32602).
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
      }
      const target = `tool:${name}`;
      const call = async () => {
        const outcome = (await app.invoker.call(tool, args, channel(ctx, _meta?.progressToken, target))) as CallToolResult;
        // The codec's projection only matters for structured results (the 2025-era {result} wrap).
        return outcome.structuredContent === undefined ? outcome : server.projectCallToolResult(outcome, tool.descriptor.outputSchema);
      };
      // Only a tool that receives a Context can ask the client for input (and be re-entered).
      return (tool.needsContext ? rounds.run(ctx, target, call) : call()) as never;
    });

    server.setRequestHandler('resources/list', (request, ctx) =>
      wire(async () => {
        const page = await app.resources.list(request.params?.cursor, channel(ctx));
        return { resources: page.items as never[], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    );

    server.setRequestHandler('resources/templates/list', (request) =>
      wire(async () => {
        const page = app.resources.templates.page(request.params?.cursor);
        return { resourceTemplates: page.items as never[], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    );

    server.setRequestHandler('resources/read', (request, ctx) =>
      wire(() => {
        const target = `resource:${request.params.uri}`;
        return rounds.run(ctx, target, async () => ({ contents: await app.resources.read(request.params.uri, channel(ctx, undefined, target)) }));
      }) as never,
    );

    server.setRequestHandler('resources/subscribe', async (request) => {
      if (!server.getNegotiatedProtocolVersion()) {
        // Stateless HTTP, 2025 era: no session to remember the subscription nor a stream to send updates on.
        throw new ProtocolError(
          ProtocolErrorCode.InvalidRequest,
          'resources/subscribe needs a session, and this stateless server keeps none: poll resources/read, ' +
            'or connect to a stateful endpoint (or with a 2026-07-28 client, which subscribes with subscriptions/listen).',
        );
      }
      session.subscriptions.add(request.params.uri);
      return {};
    });

    server.setRequestHandler('resources/unsubscribe', async (request) => {
      session.subscriptions.delete(request.params.uri);
      return {};
    });

    server.setRequestHandler('prompts/list', (request) =>
      wire(async () => {
        const page = app.prompts.page(request.params?.cursor);
        return { prompts: page.items as never[], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
      }),
    );

    server.setRequestHandler('prompts/get', (request, ctx) =>
      wire(() => {
        const target = `prompt:${request.params.name}`;
        return rounds.run(ctx, target, () => app.prompts.render(request.params.name, request.params.arguments, channel(ctx, undefined, target)));
      }) as never,
    );

    server.setRequestHandler('completion/complete', (request, ctx) =>
      wire(async () => {
        const { ref, argument, context } = request.params;
        const target: CompletionRef =
          ref.type === 'ref/prompt' ? { type: 'ref/prompt', name: ref.name } : { type: 'ref/resource', uri: ref.uri };
        const completion = await app.completions.complete(
          target,
          argument.name,
          argument.value,
          { arguments: context?.arguments ?? {} },
          channel(ctx),
        );
        return { completion: { ...completion } };
      }),
    );

    return server;
  };
  return Object.assign(factory, { hub: app.hub });
}
