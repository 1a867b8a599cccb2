import { ProtocolError, ProtocolErrorCode, type CallToolResult, type Server, type ServerContext } from '@modelcontextprotocol/server';
import type { CompletionRef } from '../completions';
import type { RequestChannel } from '../context';
import { toWireError } from './error-mapping';
import type { InputRounds } from './input-required';
import type { ProtocolApplication } from './server-factory';
import { SdkRequestChannel, type ChannelServices } from './request-channel';
import type { Session } from './session-hub';

/** What one session's handlers share: the application, its server, its session record. */
export interface SessionScope {
  readonly app: ProtocolApplication;
  readonly server: Server;
  readonly session: Session;
  readonly rounds: InputRounds;
  readonly services: ChannelServices;
}

/** The Context's view of one request (opened only when something needs it). */
function openChannel(scope: SessionScope, ctx: ServerContext, progressToken?: unknown, target?: string): RequestChannel {
  return new SdkRequestChannel(ctx, scope.server, progressToken as string | number | undefined, scope.services, target);
}

// One wire result per page, built once: pages are recomputed only when the catalogue changes.
const LIST_RESULTS = new WeakMap<object, Record<string, unknown>>();

function listResult(page: { items: readonly unknown[]; nextCursor?: string }, key: string): never {
  let result = LIST_RESULTS.get(page);
  if (!result) {
    result = { [key]: page.items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    LIST_RESULTS.set(page, result);
  }
  return result as never;
}

/** Library errors become JSON-RPC errors with the right code; nothing internal leaks. */
function wire<T>(work: () => Promise<T>): Promise<T> {
  return work().catch((error: unknown) => {
    throw toWireError(error);
  });
}

export function answerTools(scope: SessionScope): void {
  const { app, server, rounds } = scope;
  server.setRequestHandler('tools/list', (request) => wire(async () => listResult(app.tools.page(request.params?.cursor), 'tools')));

  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args, _meta } = request.params;
    const tool = app.tools.get(name);
    if (!tool) {
      // Spec 2025-11-25 server/tools#error-handling: unknown tools are a protocol error (-32602).
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    }
    // Only a tool that receives a Context can ask the client for input (and be re-entered), or needs a channel.
    if (!tool.needsContext) {
      const outcome = app.invoker.call(tool, args, tool.timeout === undefined ? undefined : () => openChannel(scope, ctx));
      return convert(server, tool.descriptor.outputSchema, outcome instanceof Promise ? await outcome : outcome);
    }
    const target = `tool:${name}`;
    const open = () => openChannel(scope, ctx, _meta?.progressToken, target);
    return rounds.run(ctx, target, async () => convert(server, tool.descriptor.outputSchema, await app.invoker.call(tool, args, open))) as never;
  });
}

// The codec's projection only matters for structured results (the 2025-era {result} wrap).
function convert(server: Server, outputSchema: object | undefined, outcome: unknown): never {
  const result = outcome as CallToolResult;
  return (result.structuredContent === undefined ? result : server.projectCallToolResult(result, outputSchema as never)) as never;
}

export function answerResources(scope: SessionScope): void {
  const { app, server, session, rounds } = scope;
  server.setRequestHandler('resources/list', (request, ctx) =>
    wire(async () => {
      const page = await app.resources.list(request.params?.cursor, openChannel(scope, ctx));
      return { resources: page.items as never[], ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    }),
  );

  server.setRequestHandler('resources/templates/list', (request) =>
    wire(async () => listResult(app.resources.templates.page(request.params?.cursor), 'resourceTemplates')),
  );

  server.setRequestHandler('resources/read', (request, ctx) =>
    wire(() => {
      const target = `resource:${request.params.uri}`;
      return rounds.run(ctx, target, async () => ({ contents: await app.resources.read(request.params.uri, openChannel(scope, ctx, undefined, target)) }));
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
    (session.subscriptions ??= new Set()).add(request.params.uri);
    return {};
  });

  server.setRequestHandler('resources/unsubscribe', async (request) => {
    session.subscriptions?.delete(request.params.uri);
    return {};
  });
}

export function answerPrompts(scope: SessionScope): void {
  const { app, server, rounds } = scope;
  server.setRequestHandler('prompts/list', (request) => wire(async () => listResult(app.prompts.page(request.params?.cursor), 'prompts')));

  server.setRequestHandler('prompts/get', (request, ctx) =>
    wire(() => {
      const target = `prompt:${request.params.name}`;
      return rounds.run(ctx, target, () => app.prompts.render(request.params.name, request.params.arguments, openChannel(scope, ctx, undefined, target)));
    }) as never,
  );
}

export function answerCompletions(scope: SessionScope): void {
  const { app, server } = scope;
  server.setRequestHandler('completion/complete', (request, ctx) =>
    wire(async () => {
      const { ref, argument, context } = request.params;
      const target: CompletionRef = ref.type === 'ref/prompt' ? { type: 'ref/prompt', name: ref.name } : { type: 'ref/resource', uri: ref.uri };
      const completion = await app.completions.complete(target, argument.name, argument.value, { arguments: context?.arguments ?? {} }, openChannel(scope, ctx));
      return { completion: { ...completion } };
    }),
  );
}
