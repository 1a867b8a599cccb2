import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { basePackages, childEnv, docFiles, jestPackages, makeProject, pack, pinned, root, runAsync } from './consumer';

/**
 * Issue 39, item 1, as a user meets it: a server with `auth.server` (oidc-provider + openid-client) tested under
 * docs/testing.md's jest set-up, file for file, in a fresh project made from the packed tarball: no transform for
 * node_modules, no flags. Jest's registry refuses the ESM-only peers, so Node loads them outside jest's sandbox,
 * and oidc-provider refused the options the library made inside it (`value.constructor === Object`):
 * "TypeError: features.… must be …" at the first start.
 */
jest.setTimeout(300_000);

let scratch: string;
let tarball: string;
beforeAll(async () => {
  scratch = mkdtempSync(path.join(tmpdir(), 'mcp-reflect-authjest-'));
  tarball = await pack(scratch);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The user's spec: the sign-in sample's upstream provider (samples/signin/upstream.mjs, a child process), the MCP
 * server with `auth.server` on a free port; then what an MCP client does: the 401, both metadata documents, a
 * registration (RFC 7591), the sign-in (a scripted browser through the upstream's login and consent and the
 * server's consent), the code exchange, and a tool call with the access token.
 */
const signInSpec = `import 'reflect-metadata';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { CurrentAuth, Injectable, McpFactory, McpModule, Module, Tool, type McpAuth } from 'mcp-reflect';
import { oidcUpstream } from 'mcp-reflect/auth-server';

@Injectable()
class WhoTools {
  @Tool({ description: 'Who signed in.' })
  whoami(@CurrentAuth() auth: McpAuth | undefined) {
    return { subject: auth?.subject, scopes: auth?.scopes ?? [], email: auth?.claims.email };
  }
}

@Module({ imports: [McpModule.forRoot({ name: 'notes', version: '1.0.0' })], providers: [WhoTools] })
class NotesModule {}

let upstream: ChildProcess;
let upstreamIssuer: string;
beforeAll(async () => {
  upstream = spawn(process.execPath, [path.join(__dirname, 'upstream.mjs')], { env: { ...process.env, UPSTREAM_PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] });
  upstreamIssuer = await new Promise<string>((resolve, reject) => {
    let seen = '';
    upstream.stderr!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const match = /at (http:\\/\\/127\\.0\\.0\\.1:\\d+)/.exec(seen);
      if (match) resolve(match[1]!);
    });
    upstream.once('exit', (code) => reject(new Error(\`upstream exited (\${code}): \${seen}\`)));
  });
});
afterAll(() => upstream.kill());

/** Follows redirects with cookies, submits each login and consent form, stops at the client's redirect. */
async function signIn(start: URL, redirect: string): Promise<URL> {
  const jar = new Map<string, string>();
  let url = start;
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 30; step++) {
    if (url.href.startsWith(redirect)) return url;
    const cookie = [...jar].filter(([key]) => key.startsWith(url.origin + ' ')).map(([key, value]) => \`\${key.split(' ')[1]}=\${value}\`).join('; ');
    const response = await fetch(url, { method: form ? 'POST' : 'GET', redirect: 'manual', headers: cookie ? { cookie } : {}, ...(form ? { body: form } : {}) });
    for (const header of response.headers.getSetCookie()) {
      const [pair] = header.split(';');
      jar.set(\`\${url.origin} \${pair!.slice(0, pair!.indexOf('='))}\`, pair!.slice(pair!.indexOf('=') + 1));
    }
    const location = response.headers.get('location');
    form = undefined;
    if (location) {
      url = new URL(location, url);
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*\\saction="([^"]*)"/.exec(html)?.[1];
    if (!action) throw new Error(\`\${url.href} answered \${response.status}: \${html.slice(0, 600)}\`);
    form = new URLSearchParams();
    for (const [, name, value] of html.matchAll(/<input[^>]*type="hidden"[^>]*name="([^"]*)"[^>]*value="([^"]*)"/g)) form.set(name!, value!.replace(/&amp;/g, '&'));
    if (form.get('prompt') === 'login') {
      form.set('login', 'dana');
      form.set('password', 'any');
    }
    if (html.includes('name="decision"')) form.set('decision', 'allow');
    url = new URL(action.replace(/&amp;/g, '&'), url);
  }
  throw new Error('no redirect to the client after 30 steps');
}

it('signs a user in through auth.server and calls a tool with its token', async () => {
  const app = await McpFactory.create(NotesModule);
  await app.listen({
    transport: 'http',
    port: 0,
    auth: { scopesSupported: ['notes:read'], server: { upstream: oidcUpstream({ issuer: upstreamIssuer, clientId: 'mcp-server', clientSecret: 'dev-secret' }) } },
  });
  try {
    const endpoint = await app.getUrl();
    const origin = new URL(endpoint).origin;
    const challenge = await fetch(endpoint, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(challenge.status).toBe(401);
    const metadata = (await (await fetch(\`\${origin}/.well-known/oauth-authorization-server\`)).json()) as Record<string, string>;
    expect(metadata).toMatchObject({ issuer: origin, registration_endpoint: \`\${origin}/oauth/register\` });

    const redirect = 'http://127.0.0.1:9/callback';
    const registration = await fetch(metadata.registration_endpoint!, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'jest', redirect_uris: [redirect], token_endpoint_auth_method: 'none', grant_types: ['authorization_code'], response_types: ['code'] }),
    });
    const registered = (await registration.json()) as { client_id?: string };
    expect({ status: registration.status, registered }).toMatchObject({ status: 201 });

    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(metadata.authorization_endpoint!);
    for (const [key, value] of Object.entries({ response_type: 'code', client_id: registered.client_id!, redirect_uri: redirect, state: 's1', resource: endpoint, code_challenge_method: 'S256', code_challenge: createHash('sha256').update(verifier).digest('base64url') })) authorize.searchParams.set(key, value);
    const back = await signIn(authorize, redirect);
    const token = await fetch(metadata.token_endpoint!, {
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code') ?? '', redirect_uri: redirect, client_id: registered.client_id!, code_verifier: verifier, resource: endpoint }),
    });
    const { access_token } = (await token.json()) as { access_token: string };
    expect(token.status).toBe(200);

    const client = new Client({ name: 'jest', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: \`Bearer \${access_token}\` } } }));
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.structuredContent).toEqual({ subject: 'dana', scopes: ['notes:read'], email: 'dana@example.com' });
    } finally {
      await client.close();
    }
  } finally {
    await app.close();
  }
}, 120_000);

it('gives a machine client a token (client credentials, keys on a schedule) and calls a tool with it', async () => {
  const app = await McpFactory.create(NotesModule);
  const secret = randomBytes(32).toString('base64url');
  await app.listen({
    transport: 'http',
    port: 0,
    auth: {
      scopesSupported: ['notes:read', 'notes:write'],
      server: {
        upstream: oidcUpstream({ issuer: upstreamIssuer, clientId: 'mcp-server', clientSecret: 'dev-secret' }),
        keys: { upstreamTokens: randomBytes(32).toString('base64'), rotation: { every: 86_400 } },
        machineClients: { clients: [{ clientId: 'nightly-report', clientSecret: secret, scopes: ['notes:read'] }] },
      },
    },
  });
  try {
    const endpoint = await app.getUrl();
    const origin = new URL(endpoint).origin;
    const metadata = (await (await fetch(\`\${origin}/.well-known/oauth-authorization-server\`)).json()) as Record<string, string | string[]>;
    expect(metadata.grant_types_supported).toContain('client_credentials');
    const jwks = (await (await fetch(metadata.jwks_uri as string)).json()) as { keys: { kid: string; alg?: string }[] };
    expect(jwks.keys.length).toBeGreaterThan(0);
    const basic = \`Basic \${Buffer.from(\`nightly-report:\${secret}\`).toString('base64')}\`;
    const ask = (authorization: string) =>
      fetch(metadata.token_endpoint as string, {
        method: 'POST',
        headers: { authorization },
        body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'notes:read notes:write', resource: endpoint }),
      });
    const refused = await ask(\`Basic \${Buffer.from('nightly-report:wrong').toString('base64')}\`);
    expect(refused.status).toBe(401);
    const token = await ask(basic);
    const granted = (await token.json()) as { access_token: string; scope: string };
    expect({ status: token.status, scope: granted.scope }).toEqual({ status: 200, scope: 'notes:read' });
    const kid = JSON.parse(Buffer.from(granted.access_token.split('.')[0]!, 'base64url').toString()).kid as string;
    expect(jwks.keys.map((key) => key.kid)).toContain(kid);

    const client = new Client({ name: 'nightly', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(endpoint), { requestInit: { headers: { authorization: \`Bearer \${granted.access_token}\` } } }));
    try {
      const result = await client.callTool({ name: 'whoami', arguments: {} });
      expect(result.structuredContent).toEqual({ subject: 'nightly-report', scopes: ['notes:read'] });
    } finally {
      await client.close();
    }
  } finally {
    await app.close();
  }
}, 120_000);
`;

it("a server with auth.server signs a user in, and gives a machine client a token, under docs/testing.md's jest set-up, with no transform of node_modules", async () => {
  const dir = path.join(scratch, 'signin');
  mkdirSync(dir);
  const { '.swcrc': swcrc, 'jest.config.js': jestConfig } = docFiles('testing.md', 'CommonJS');
  expect(jestConfig).not.toMatch(/transformIgnorePatterns|experimental-vm-modules|oidc-provider/);
  await makeProject(
    dir,
    tarball,
    {
      '.swcrc': swcrc!,
      'jest.config.js': jestConfig!,
      'package.json': JSON.stringify({ name: 'signin', version: '1.0.0', private: true, type: 'commonjs', scripts: { test: 'jest' } }, null, 2),
      'src/signin.spec.ts': signInSpec,
    },
    [...basePackages, ...jestPackages, pinned('oidc-provider'), pinned('openid-client')],
  );
  copyFileSync(path.join(root, 'samples', 'signin', 'upstream.mjs'), path.join(dir, 'src', 'upstream.mjs'));
  // Plain `jest`, no NODE_OPTIONS. A failure throws with jest's output ("TypeError: features.… must be …").
  await runAsync(process.execPath, [path.join(dir, 'node_modules', 'jest', 'bin', 'jest.js')], dir, childEnv);
});
