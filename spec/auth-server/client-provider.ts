import type { OAuthClientMetadata, OAuthClientProvider, OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

/**
 * An MCP client application's side of the authorization code flow, in memory: registers by DCR (or names its
 * Client ID Metadata Document), "redirects" the user by recording the URL.
 */
export class AppClientProvider implements OAuthClientProvider {
  readonly redirects: URL[] = [];
  info?: StoredOAuthClientInformation;
  stored?: StoredOAuthTokens;
  private verifier?: string;
  private discovery?: OAuthDiscoveryState;

  constructor(
    readonly redirectUrl: string,
    readonly clientMetadataUrl?: string,
    private readonly extra: Partial<OAuthClientMetadata> = {},
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Spec Desktop',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      ...this.extra,
    };
  }
  clientInformation(): StoredOAuthClientInformation | undefined {
    return this.info;
  }
  saveClientInformation(info: StoredOAuthClientInformation): void {
    this.info = info;
  }
  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }
  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.redirects.push(url);
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }
  saveDiscoveryState(state: OAuthDiscoveryState): void {
    this.discovery = state;
  }
  discoveryState(): OAuthDiscoveryState | undefined {
    return this.discovery;
  }
}
