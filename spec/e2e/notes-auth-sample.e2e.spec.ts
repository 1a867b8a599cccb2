import 'reflect-metadata';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import express from 'express';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { McpFactory } from 'mcp-reflect';
import { run as runClient } from '../../samples/notes-auth/client';
import { NotesAuthModule } from '../../samples/notes-auth/notes-auth.module';
import { startAuthorizationServer, type AuthorizationServer } from '../support/authorization-server';
import { initializeBody, JSON_AND_SSE } from '../support/http-helpers';

/**
 * samples/notes-auth as docs/auth.md tells a user to run it: spawned with `node`, over stdio with the identity
 * in the environment, and over HTTP in front of a real authorization server (the spec harness, and the
 * development server samples/notes-auth/authorization-server.mjs that the docs start).
 */
const root = path.resolve(__dirname, '..', '..');
const register = path.join(root, 'spec', 'support', 'register.js');
const main = path.join(root, 'samples', 'notes-auth', 'main.ts');

async function overStdio(env: Record<string, string>, protocolVersion?: '2026-07-28') {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({ command: process.execPath, args: ['-r', register, main, '--stdio'], env, stderr: 'pipe', cwd: root });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client({ name: 'notes-auth-spec', version: '1.0.0' }, protocolVersion ? { versionNegotiation: { mode: { pin: protocolVersion } } } : {});
  await client.connect(transport);
  return { client, stderr };
}

/** A spawned process, and the first stderr line matching `ready` (its first group), or its output on failure. */
interface Spawned {
  readonly child: ChildProcess;
  readonly match: string;
  output(): string;
}

function spawnUntil(args: string[], env: Record<string, string>, ready: RegExp, timeoutMs = 20_000): Promise<Spawned> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = ready.exec(output);
      if (!found) return;
      clearTimeout(timer);
      child.stderr!.off('data', read);
      child.stderr!.on('data', (more: Buffer) => (output += more.toString()));
      resolve({ child, match: found[1], output: () => output });
    };
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code}) before it was ready:\n${output}`));
    });
  });
}

async function stop(spawned: Spawned | undefined): Promise<void> {
  const child = spawned?.child;
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/** The MCP server of the sample over HTTP: `ISSUER=<issuer> PORT=0 node samples/notes-auth/main.ts`. */
const startSample = (issuer: string) => spawnUntil(['-r', register, main], { ISSUER: issuer, PORT: '0' }, /notes-auth MCP server on (\S+) /);

const connectWith = async (url: string, token: string) => {
  const client = new Client({ name: 'notes-auth-spec', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
  return client;
};

const names = (tools: { name: string }[]) => tools.map((t) => t.name).sort();

describe('samples/notes-auth over stdio (spawned, identity from the environment)', () => {
  it.each([undefined, '2026-07-28'] as const)("with NOTES_SCOPES='notes:read' shows listNotes and whoami, not addNote (era %s)", async (era) => {
    const { client, stderr } = await overStdio({ NOTES_SUBJECT: 'ada', NOTES_SCOPES: 'notes:read' }, era);
    try {
      expect(names((await client.listTools()).tools)).toEqual(['listNotes', 'whoami']);
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toEqual({ subject: 'ada', clientId: 'stdio', scopes: ['notes:read'] });
      const notes = await client.callTool({ name: 'listNotes', arguments: {} });
      expect(notes.content).toEqual([{ type: 'text', text: JSON.stringify([{ id: 1, text: 'Welcome to notes-auth', author: 'system' }]) }]);
      const read = await client.readResource({ uri: 'notes://1' });
      expect(read.contents).toEqual([{ uri: 'notes://1', mimeType: 'text/plain', text: 'Welcome to notes-auth' }]);
      // No HTTP status to step up with on stdio: the call is answered in MCP, naming the scopes.
      const add = await client.callTool({ name: 'addNote', arguments: { text: 'hi' } });
      expect(add).toMatchObject({
        isError: true,
        content: [
          {
            type: 'text',
            text: "Insufficient scope: the tool 'addNote' needs the scopes notes:read notes:write, which the access token does not grant. Ask the authorization server for them.",
          },
        ],
      });
    } finally {
      await client.close();
    }
    expect(stderr.join('')).toContain('notes-auth MCP server ready on stdio');
  });

  it("with NOTES_SCOPES='notes:read notes:write' adds a note written by NOTES_SUBJECT", async () => {
    const { client } = await overStdio({ NOTES_SUBJECT: 'grace', NOTES_SCOPES: 'notes:read notes:write' });
    try {
      expect(names((await client.listTools()).tools)).toEqual(['addNote', 'listNotes', 'whoami']);
      const added = await client.callTool({ name: 'addNote', arguments: { text: 'from stdio' } });
      expect(added.isError).toBeFalsy();
      expect(added.structuredContent).toEqual({ id: 2, text: 'from stdio', author: 'grace' });
      const notes = await client.callTool({ name: 'listNotes', arguments: {} });
      expect(JSON.parse((notes.content as { text: string }[])[0].text)).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('with NOTES_SCOPES empty shows only the @Public() whoami', async () => {
    const { client } = await overStdio({ NOTES_SUBJECT: 'eve', NOTES_SCOPES: '' });
    try {
      expect(names((await client.listTools()).tools)).toEqual(['whoami']);
      expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
      expect((await client.listPrompts()).prompts).toEqual([]);
    } finally {
      await client.close();
    }
  });
});

describe('samples/notes-auth over HTTP (spawned with ISSUER and PORT=0, tokens from the oidc-provider harness)', () => {
  let as: AuthorizationServer;
  let sample: Spawned;
  let url: string;

  beforeAll(async () => {
    as = await startAuthorizationServer();
    sample = await startSample(as.issuer);
    url = sample.match;
  }, 60_000);
  afterAll(async () => {
    await stop(sample);
    await as?.close();
  });

  it('binds a free port and publishes its protected resource metadata', async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    expect(url).not.toContain(':0/');
    const response = await fetch(new URL('/.well-known/oauth-protected-resource/mcp', url));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      resource: url,
      authorization_servers: [as.issuer],
      bearer_methods_supported: ['header'],
      scopes_supported: ['notes:read', 'notes:write'],
      resource_name: 'Notes',
    });
  });

  it('answers a request without a token 401 with a challenge pointing to the metadata', async () => {
    const response = await fetch(url, { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="notes:read notes:write"`,
    );
  });

  it('serves a notes:read token: listNotes and whoami; addNote is answered 403 insufficient_scope', async () => {
    const client = await connectWith(url, await as.token({ scope: 'notes:read', resource: url }));
    try {
      expect(names((await client.listTools()).tools)).toEqual(['listNotes', 'whoami']);
      const who = await client.callTool({ name: 'whoami', arguments: {} });
      expect(who.structuredContent).toEqual({ subject: as.clientId, clientId: as.clientId, scopes: ['notes:read'] });
      await expect(client.callTool({ name: 'addNote', arguments: { text: 'no' } })).rejects.toThrow(/403|insufficient/i);
    } finally {
      await client.close();
    }
  });

  it('serves a notes:read notes:write token: addNote writes as the token subject', async () => {
    const client = await connectWith(url, await as.token({ scope: 'notes:read notes:write', resource: url }));
    try {
      const added = await client.callTool({ name: 'addNote', arguments: { text: 'over HTTP' } });
      expect(added.structuredContent).toMatchObject({ text: 'over HTTP', author: as.clientId });
    } finally {
      await client.close();
    }
  });

  it('refuses a token issued for another resource (RFC 8707 audience) with 401 invalid_token', async () => {
    const token = await as.token({ scope: 'notes:read', resource: 'http://127.0.0.1:1/mcp' });
    const response = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}` }, body: initializeBody() });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await response.json()).toEqual({ error: 'invalid_token', error_description: 'The access token was not issued for this server (audience).' });
  });

  it('is found by the SDK ClientCredentialsProvider from the 401 alone (samples/notes-auth/client.ts)', async () => {
    const result = await runClient(url, { clientId: as.clientId, clientSecret: as.clientSecret, issuer: as.issuer });
    expect(result.tools.sort()).toEqual(['addNote', 'listNotes', 'whoami']);
    expect(result.whoami).toEqual({ subject: as.clientId, clientId: as.clientId, scopes: ['notes:read', 'notes:write'] });
    expect(result.added).toMatchObject({ text: 'written by a machine client', author: as.clientId });
  });
});

describe('docs/auth.md step by step: the development authorization server, the sample, a token from the token endpoint', () => {
  let authServer: Spawned;
  let sample: Spawned;
  let issuer: string;
  let url: string;

  beforeAll(async () => {
    authServer = await spawnUntil([path.join(root, 'samples', 'notes-auth', 'authorization-server.mjs')], { AUTH_PORT: '0' }, /authorization server at (\S+) /);
    issuer = authServer.match;
    sample = await startSample(issuer);
    url = sample.match;
  }, 60_000);
  afterAll(async () => {
    await stop(sample);
    await stop(authServer);
  });

  /** What the docs do with curl: `curl -u notes-client:notes-client-secret -d grant_type=client_credentials …`. */
  const token = async (scope: string) => {
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('notes-client:notes-client-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope, resource: url }),
    });
    expect(response.status).toBe(200);
    return ((await response.json()) as { access_token: string }).access_token;
  };

  it('is the script docs/auth.md prints', () => {
    const script = readFileSync(path.join(root, 'samples', 'notes-auth', 'authorization-server.mjs'), 'utf8').replace(/^(\/\/.*\n)+/, '');
    const docs = readFileSync(path.join(root, 'docs', 'auth.md'), 'utf8');
    const shown = /```js\n\/\/ authorization-server\.mjs\n([\s\S]*?)```/.exec(docs)?.[1];
    expect(shown).toBe(script);
  });

  it('publishes RFC 8414 metadata whose issuer is its URL', async () => {
    const metadata = (await (await fetch(`${issuer}/.well-known/oauth-authorization-server`)).json()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ issuer, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks` });
  });

  it('issues RS256 JWTs for the resource that the sample accepts', async () => {
    const jwt = await token('notes:read');
    const [header, payload] = jwt.split('.').slice(0, 2).map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'RS256', typ: 'at+jwt' });
    expect(payload).toMatchObject({ iss: issuer, aud: url, scope: 'notes:read', client_id: 'notes-client', sub: 'notes-client' });
    const client = await connectWith(url, jwt);
    try {
      expect(names((await client.listTools()).tools)).toEqual(['listNotes', 'whoami']);
      expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toEqual({
        subject: 'notes-client',
        clientId: 'notes-client',
        scopes: ['notes:read'],
      });
    } finally {
      await client.close();
    }
  });

  it('answers the curl step-up request 403 with the complete scope set', async () => {
    const jwt = await token('notes:read');
    const headers = { ...JSON_AND_SSE, authorization: `Bearer ${jwt}` };
    const init = await fetch(url, { method: 'POST', headers, body: initializeBody() });
    expect(init.status).toBe(200);
    const session = init.headers.get('mcp-session-id')!;
    await init.text();
    const call = await fetch(url, {
      method: 'POST',
      headers: { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'addNote', arguments: { text: 'hi' } } }),
    });
    expect(call.status).toBe(403);
    expect(call.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${new URL(url).origin}/.well-known/oauth-protected-resource/mcp", scope="notes:read notes:write", error="insufficient_scope", error_description="This request needs the scope notes:write."`,
    );
    expect(await call.json()).toEqual({ error: 'insufficient_scope', error_description: 'This request needs the scope notes:write.' });
  });

  it('refuses an opaque token (requested without resource) with 401', async () => {
    const response = await fetch(`${issuer}/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from('notes-client:notes-client-secret').toString('base64')}` },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'notes:read' }),
    });
    const opaque = ((await response.json()) as { access_token: string }).access_token;
    const refused = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: `Bearer ${opaque}` }, body: initializeBody() });
    expect(refused.status).toBe(401);
  });

  it('serves the client sample (ClientCredentialsProvider) with its default credentials', async () => {
    const result = await runClient(url, { clientId: 'notes-client', clientSecret: 'notes-client-secret', issuer });
    expect(result.whoami).toEqual({ subject: 'notes-client', clientId: 'notes-client', scopes: ['notes:read', 'notes:write'] });
    expect(result.added).toMatchObject({ author: 'notes-client' });
  });
});

describe('docs/auth.md: opaque tokens by introspection (the development server with ACCESS_TOKEN_FORMAT=opaque)', () => {
  it('serves a token the introspection endpoint says is active and for this server', async () => {
    const authServer = await spawnUntil(
      [path.join(root, 'samples', 'notes-auth', 'authorization-server.mjs')],
      { AUTH_PORT: '0', ACCESS_TOKEN_FORMAT: 'opaque' },
      /authorization server at (\S+) /,
    );
    const issuer = authServer.match;
    const app = await McpFactory.create(NotesAuthModule);
    try {
      await app.listen({
        transport: 'http',
        port: 0,
        auth: {
          issuer,
          introspection: { endpoint: `${issuer}/token/introspection`, clientId: 'notes-client', clientSecret: 'notes-client-secret' },
        },
      });
      const url = await app.getUrl();
      const tokenFor = async (resource: string) => {
        const response = await fetch(`${issuer}/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from('notes-client:notes-client-secret').toString('base64')}` },
          body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'notes:read', resource }),
        });
        return ((await response.json()) as { access_token: string }).access_token;
      };
      const opaque = await tokenFor(url);
      expect(opaque.split('.')).toHaveLength(1);
      const client = await connectWith(url, opaque);
      try {
        // oidc-provider's introspection answer for a client-credentials token has no `sub`.
        expect((await client.callTool({ name: 'whoami', arguments: {} })).structuredContent).toEqual({ clientId: 'notes-client', scopes: ['notes:read'] });
      } finally {
        await client.close();
      }
      const elsewhere = await tokenFor('http://127.0.0.1:1/mcp');
      const refused = await fetch(url, { method: 'POST', headers: { ...JSON_AND_SSE, authorization: `Bearer ${elsewhere}` }, body: initializeBody() });
      expect([refused.status, await refused.json()]).toEqual([401, { error: 'invalid_token', error_description: 'The access token was not issued for this server (audience).' }]);
    } finally {
      await app.close();
      await stop(authServer);
    }
  }, 60_000);
});

describe('docs/auth.md: Express 5 with createHttpHandler({ auth }) and its metadataPaths', () => {
  it('serves the metadata and the endpoint at the routes the docs give', async () => {
    const as = await startAuthorizationServer();
    const app = await McpFactory.create(NotesAuthModule);
    const web = express();
    const server = web.listen(0, '127.0.0.1');
    try {
      await new Promise<void>((resolve) => server.once('listening', () => resolve()));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      const mcp = app.createHttpHandler({ allowedHosts: ['127.0.0.1'], auth: { issuer: as.issuer, resource: url } });
      expect(mcp.metadataPaths).toEqual(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']);
      web.all([...mcp.metadataPaths], mcp);
      web.all('/mcp', mcp);
      for (const metadataPath of mcp.metadataPaths) {
        const metadata = await fetch(new URL(metadataPath, url));
        expect(metadata.headers.get('access-control-allow-origin')).toBe('*');
        expect(await metadata.json()).toMatchObject({ resource: url, authorization_servers: [as.issuer] });
      }
      const preflight = await fetch(new URL(mcp.metadataPaths[0], url), { method: 'OPTIONS' });
      expect(preflight.status).toBe(204);
      const client = await connectWith(url, await as.token({ scope: 'notes:read', resource: url }));
      try {
        expect(names((await client.listTools()).tools)).toEqual(['listNotes', 'whoami']);
      } finally {
        await client.close();
      }
    } finally {
      await app.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await as.close();
    }
  });
});

describe('step-up with the SDK client (the sample module in process, requiredScopes narrower than the components)', () => {
  it('asks for notes:write when addNote is answered 403, then retries', async () => {
    const as = await startAuthorizationServer();
    const app = await McpFactory.create(NotesAuthModule);
    try {
      // The 401 challenge names requiredScopes only, so the first token carries notes:read alone.
      await app.listen({ transport: 'http', port: 0, auth: { issuer: as.issuer, requiredScopes: ['notes:read'] } });
      const url = await app.getUrl();
      const challenge = await fetch(url, { method: 'POST', headers: JSON_AND_SSE, body: initializeBody() });
      expect(challenge.headers.get('www-authenticate')).toContain('scope="notes:read"');
      const result = await runClient(url, { clientId: as.clientId, clientSecret: as.clientSecret, issuer: as.issuer });
      expect(result.tools.sort()).toEqual(['listNotes', 'whoami']);
      expect(result.whoami).toMatchObject({ scopes: ['notes:read'] });
      expect(result.added).toMatchObject({ text: 'written by a machine client', author: as.clientId });
    } finally {
      await app.close();
      await as.close();
    }
  });
});
