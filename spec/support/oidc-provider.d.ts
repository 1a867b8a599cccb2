// oidc-provider ships no type declarations; this is the small part of its API that
// ./authorization-server.process.ts uses (see the package's docs/README.md for the full configuration).
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface ResourceServer {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
    jwt?: { sign?: { alg?: string; kid?: string } };
  }

  export interface Configuration {
    adapter?: new (model: string) => unknown;
    jwks?: { keys: Record<string, unknown>[] };
    scopes?: string[];
    clients?: Record<string, unknown>[];
    ttl?: Record<string, number>;
    pkce?: { required?: (ctx: unknown, client: unknown) => boolean };
    features?: {
      devInteractions?: { enabled: boolean };
      clientCredentials?: { enabled: boolean };
      introspection?: { enabled: boolean };
      revocation?: { enabled: boolean };
      resourceIndicators?: {
        enabled: boolean;
        defaultResource?: (ctx: unknown, client: unknown, oneOf?: string[]) => string | string[] | undefined | Promise<string | string[] | undefined>;
        useGrantedResource?: (ctx: unknown, model: unknown) => boolean | Promise<boolean>;
        getResourceServerInfo?: (ctx: unknown, resourceIndicator: string, client: unknown) => ResourceServer | Promise<ResourceServer>;
      };
    };
  }

  /** The Koa context of a request, with what oidc-provider found out about it. */
  export interface KoaContextWithOIDC {
    body: unknown;
    oidc: { params: Record<string, unknown>; client?: { clientId: string } };
  }

  export default class Provider {
    constructor(issuer: string, configuration?: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    /** A successful token endpoint request (oidc-provider emits many other events). */
    on(event: 'grant.success', listener: (ctx: KoaContextWithOIDC) => void): this;
  }
}
