import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  StreamableHTTPClientTransport,
  UnauthorizedError,
  type OAuthClientMetadata,
  type OAuthClientProvider,
  type OAuthDiscoveryState,
  type StoredOAuthClientInformation,
  type StoredOAuthTokens,
} from '@modelcontextprotocol/client';

/**
 * What an MCP client (Claude, VS Code, …) does with a server that signs users in, with the official SDK: the
 * 401 names the authorization server, the client registers (DCR), sends the user's browser to sign in,
 * receives the code on a loopback redirect and connects with its token. `open` shows the user the URL.
 */
export async function connectWithSignIn(url: string, open: (authorizationUrl: URL) => Promise<void>): Promise<Client> {
  let received: (params: URLSearchParams) => void = () => undefined;
  const callback = new Promise<URLSearchParams>((resolve) => (received = resolve));
  const listener = createServer((req, res) => {
    received(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
    res.writeHead(200, { 'content-type': 'text/plain' }).end('Signed in: you can close this window.');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  const provider = new MemoryClientProvider(`http://127.0.0.1:${(listener.address() as AddressInfo).port}/callback`, open);
  try {
    const transport = new StreamableHTTPClientTransport(new URL(url), { authProvider: provider });
    try {
      await new Client({ name: 'signin-sample', version: '1.0.0' }).connect(transport);
    } catch (error) {
      if (!(error instanceof UnauthorizedError)) throw error;
      await transport.finishAuth(await callback);
    }
    const client = new Client({ name: 'signin-sample', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
    return client;
  } finally {
    listener.close();
  }
}

class MemoryClientProvider implements OAuthClientProvider {
  private info?: StoredOAuthClientInformation;
  private stored?: StoredOAuthTokens;
  private verifier = '';
  private discovery?: OAuthDiscoveryState;

  constructor(
    readonly redirectUrl: string,
    private readonly open: (url: URL) => Promise<void>,
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Sign-in sample', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }
  clientInformation = () => this.info;
  saveClientInformation = (info: StoredOAuthClientInformation) => void (this.info = info);
  tokens = () => this.stored;
  saveTokens = (tokens: StoredOAuthTokens) => void (this.stored = tokens);
  redirectToAuthorization = (url: URL) => this.open(url);
  saveCodeVerifier = (verifier: string) => void (this.verifier = verifier);
  codeVerifier = () => this.verifier;
  saveDiscoveryState = (state: OAuthDiscoveryState) => void (this.discovery = state);
  discoveryState = () => this.discovery;
}

async function main(): Promise<void> {
  const url = process.argv[2] ?? 'http://127.0.0.1:3000/mcp';
  const client = await connectWithSignIn(url, async (authorizationUrl) => console.error(`Open this in your browser to sign in:\n\n  ${authorizationUrl.href}\n`));
  const who = await client.callTool({ name: 'whoami', arguments: {} });
  console.log(JSON.stringify(who.structuredContent));
  await client.close();
}

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
