import type { IncomingMessage, ServerResponse } from 'node:http';

// oidc-provider ships no type declarations: the part of its API the authorization server uses (see the
// package's docs/README.md for the whole configuration).

export interface OidcClient {
  readonly clientId: string;
  readonly clientName?: string;
  readonly redirectUris?: readonly string[];
}

export interface OidcGrant {
  addOIDCScope(scope: string): void;
  addOIDCClaims(claims: string[]): void;
  addResourceScope(resource: string, scope: string): void;
  save(ttl?: number): Promise<string>;
  readonly jti: string;
}

export interface InteractionDetails {
  readonly uid: string;
  readonly prompt: { readonly name: string; readonly details: Record<string, unknown> };
  readonly params: Record<string, unknown>;
  readonly session?: { readonly accountId?: string };
  readonly grantId?: string;
}

export type InteractionResult =
  | { login: { accountId: string; remember?: boolean } }
  | { consent: { grantId: string } }
  | { error: string; error_description?: string };

/** The Koa context of a request, with what oidc-provider found out about it. */
export interface OidcContext {
  oidc: {
    client?: OidcClient;
    session?: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
  };
}

export interface OidcProvider {
  proxy: boolean;
  callback(): (req: IncomingMessage, res: ServerResponse) => void;
  interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
  interactionResult(req: IncomingMessage, res: ServerResponse, result: InteractionResult, options?: { mergeWithLastSubmission?: boolean }): Promise<string>;
  interactionFinished(req: IncomingMessage, res: ServerResponse, result: InteractionResult, options?: { mergeWithLastSubmission?: boolean }): Promise<void>;
  readonly Client: { find(id: string): Promise<OidcClient | undefined> };
  readonly Grant: (new (init: { accountId: string; clientId: string }) => OidcGrant) & { find(id: string): Promise<OidcGrant | undefined> };
  on(event: string, listener: (...args: unknown[]) => void): this;
  registerGrantType(name: string, handler: (ctx: any) => Promise<void>, parameters: readonly string[]): void;
}

export interface OidcProviderModule {
  default: new (issuer: string, configuration: Record<string, unknown>) => OidcProvider;
  errors: {
    InvalidTarget: new (description?: string) => Error;
    InvalidClientMetadata: new (description?: string) => Error;
    InvalidGrant: new () => Error;
    InvalidScope: new (description?: string) => Error;
    InvalidDpopProof: new (description?: string) => Error;
  };
}
