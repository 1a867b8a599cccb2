import type { Server, ServerContext } from '@modelcontextprotocol/server';
import { isModernRevision, ownerOf, type ClientInfo, type InteractionChannel, type LogLevel, type McpTransportKind, type RequestChannel } from '../context';
import type { McpAuth } from '../interfaces';
import type { ElicitationForms } from '../invocation';
import type { ServerLogger } from '../interfaces';
import type { ResolvedStateOptions, StateBinding } from '../state';
import { fromAuthInfo } from './auth-info';
import { clientHeader, visibleHeaders } from './peer-headers';
import type { Answers, InputRounds } from './input-required';
import type { ServerHub } from './server-hub';

/** What every request channel of the application shares. */
export interface ChannelServices {
  readonly logger: ServerLogger;
  readonly hub: ServerHub;
  readonly rounds: InputRounds;
  readonly forms: ElicitationForms;
  readonly readResource: (uri: string, channel: RequestChannel) => Promise<unknown[]>;
  /** Where `ctx.state` lives (`forRoot({ state })`, checked once). */
  readonly state: ResolvedStateOptions;
}

/**
 * What a connection brings: the identity it was opened with, and its own id (stdio, in memory; HTTP requests carry
 * their own). One object per connection or stateful HTTP session: the hub counts a session per object (server-hub.ts).
 */
export interface Connection {
  readonly auth?: McpAuth;
  /** One per stdio or in-memory connection: the owner of `ctx.state` when the caller has no session and no identity. */
  readonly id?: string;
  /** The transport it came over (`'stdio'`, `'http'` for a stateful HTTP session); undefined in memory. */
  readonly transport?: McpTransportKind;
}

/**
 * Whose `ctx.state` a request reads (docs/state.md): its 2025-11-25 session, else its verified identity
 * (the token's subject and client), else its stdio or in-memory connection; undefined when it has none of them
 * (stateless HTTP without auth), so that anonymous callers never share one state.
 */
export function stateOwnerOf(channel: RequestChannel, connectionId: string | undefined): string | undefined {
  if (channel.sessionId !== undefined && !isModernRevision(channel.protocolVersion)) return `session:${channel.sessionId}`;
  if (channel.auth) return `auth:${JSON.stringify([ownerOf(channel.auth), channel.auth.clientId])}`;
  return connectionId !== undefined ? `connection:${connectionId}` : undefined;
}

/** The Context's view of one SDK request: cancellation, ids, the client, and the ways of talking back. */
export class SdkRequestChannel implements RequestChannel {
  private answers?: Answers;

  constructor(
    private readonly ctx: ServerContext,
    private readonly server: Server,
    readonly progressToken: string | number | undefined,
    private readonly services: ChannelServices,
    private readonly target = '',
    private readonly connection: Connection = {},
  ) {}

  get interaction(): InteractionChannel {
    return {
      response: (key) => (this.answers ??= this.services.rounds.answers(this.ctx, this.target))[key],
      form: (dto) => this.services.forms.form(dto),
      readResource: (uri) => this.services.readResource(uri, this),
      carried: () => this.services.rounds.carried(this.ctx, this.target),
    };
  }

  get signal(): AbortSignal {
    return this.ctx.mcpReq.signal;
  }

  get requestId(): string | number {
    return this.ctx.mcpReq.id;
  }

  get sessionId(): string | undefined {
    return this.ctx.sessionId;
  }

  /** 2026-07-28 requests carry the client in their envelope; 2025-era sessions declared it at initialize. */
  get client(): ClientInfo {
    const envelope = this.ctx.mcpReq.envelope as Record<string, any> | undefined;
    const info = envelope?.['io.modelcontextprotocol/clientInfo'] ?? this.server.getClientVersion();
    const capabilities = envelope?.['io.modelcontextprotocol/clientCapabilities'] ?? this.server.getClientCapabilities() ?? {};
    return { name: info?.name, version: info?.version, capabilities };
  }

  /** The bearer token's identity over HTTP; else the identity the connection was opened with (stdio, in memory). */
  get auth(): McpAuth | undefined {
    const info = this.ctx.http?.authInfo;
    return info ? fromAuthInfo(info) : this.connection.auth;
  }

  get state(): StateBinding {
    const client = this.clientKey;
    return { ...this.services.state, owner: stateOwnerOf(this, this.connection.id), ...(client !== undefined ? { client } : {}) };
  }

  get headers(): Readonly<Record<string, string>> | undefined {
    const request = this.ctx.http?.req;
    return request ? visibleHeaders(request.headers) : undefined;
  }

  /** The key the HTTP endpoint counts the client by, which it hands on in a header of its own (never a client's). */
  get clientKey(): string | undefined {
    return this.ctx.http?.req?.headers.get(clientHeader()) ?? undefined;
  }

  get meta(): Readonly<Record<string, unknown>> | undefined {
    return this.ctx.mcpReq._meta as Readonly<Record<string, unknown>> | undefined;
  }

  /** HTTP when the SDK handed the request over HTTP; else the connection's transport (stdio, or none in memory). */
  get transport(): McpTransportKind | undefined {
    return this.ctx.http ? 'http' : this.connection.transport;
  }

  get protocolVersion(): string | undefined {
    const envelope = this.ctx.mcpReq.envelope as Record<string, any> | undefined;
    return envelope?.['io.modelcontextprotocol/protocolVersion'] ?? this.server.getNegotiatedProtocolVersion();
  }

  // A notification that cannot be delivered (client gone) must not fail the call: report it and go on.
  notify(method: string, params: Record<string, unknown>): Promise<void> {
    return this.ctx.mcpReq.notify({ method, params } as never).catch((error: unknown) => this.dropped(method, error));
  }

  log(level: LogLevel, data: unknown, logger?: string): Promise<void> {
    return this.ctx.mcpReq.log(level, data, logger).catch((error: unknown) => this.dropped('notifications/message', error));
  }

  resourceUpdated(uri: string): Promise<void> {
    return this.services.hub.resourceUpdated(uri);
  }

  private dropped(method: string, error: unknown): void {
    this.services.logger.warn(`Could not send ${method}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
