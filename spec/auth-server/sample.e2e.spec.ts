import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { connectWithSignIn } from '../../samples/signin/client';
import { browse } from './support';

const root = path.resolve(__dirname, '..', '..');

/** Starts `args` with node and resolves with the first stderr line matching `ready` (its match). */
function start(args: string[], env: Record<string, string>, ready: RegExp): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} did not start:\n${output}`)), 20_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    });
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}):\n${output}`)));
  });
}

/**
 * docs/auth.md "Sign-in for Claude, ChatGPT and IDEs", step by step: the local upstream provider, the server of
 * samples/signin, and its SDK client, whose sign-in URL a (scripted) browser follows.
 */
describe('samples/signin, as docs/auth.md runs it', () => {
  const children: ChildProcess[] = [];
  // Each child is waited for: its pipes close with it, and jest exits.
  afterAll(() => Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode !== null ? undefined : new Promise((resolve) => (c.once('exit', resolve), c.kill()))))));

  it('signs in at the local upstream and calls whoami as that user', async () => {
    const upstream = await start(['samples/signin/upstream.mjs'], { UPSTREAM_PORT: '0' }, /upstream sign-in provider at (\S+)/);
    children.push(upstream.child);
    const server = await start(['-r', './spec/support/register.js', 'samples/signin/main.ts'], { PORT: '0', UPSTREAM_ISSUER: upstream.match[1] }, /notes MCP server on (\S+),/);
    children.push(server.child);
    const url = server.match[1];
    const client = await connectWithSignIn(url, async (authorizationUrl) => {
      const redirect = authorizationUrl.searchParams.get('redirect_uri')!;
      const { url: callback } = await browse(authorizationUrl, redirect, { login: 'dana' });
      // The browser lands on the client's loopback listener.
      await (await fetch(callback)).text();
    });
    const who = await client.callTool({ name: 'whoami', arguments: {} });
    expect(who.structuredContent).toMatchObject({ subject: 'dana', scopes: ['notes:read', 'notes:write'] });
    await client.close();
  });

  it('lets a company agent in with an ID-JAG of the local enterprise IdP (docs/auth.md, "Enterprise sign-in", step by step)', async () => {
    const upstream = await start(['samples/signin/upstream.mjs'], { UPSTREAM_PORT: '0' }, /upstream sign-in provider at (\S+)/);
    children.push(upstream.child);
    const idp = await start(['samples/signin/enterprise-idp.mjs'], { ENTERPRISE_PORT: '0' }, /enterprise IdP at (\S+) /);
    children.push(idp.child);
    const server = await start(['-r', './spec/support/register.js', 'samples/signin/main.ts'], { PORT: '0', UPSTREAM_ISSUER: upstream.match[1], ENTERPRISE_ISSUER: idp.match[1] }, /notes MCP server on (\S+),/);
    children.push(server.child);
    const agent = spawn(process.execPath, ['-r', './spec/support/register.js', 'samples/signin/agent.ts', server.match[1], idp.match[1], 'erin'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(agent);
    let out = '';
    let err = '';
    agent.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    agent.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => agent.once('exit', resolve));
    expect({ code, err: code === 0 ? '' : err }).toEqual({ code: 0, err: '' });
    expect(JSON.parse(out.trim())).toMatchObject({ subject: 'erin', scopes: ['notes:read', 'notes:write'] });
  }, 60_000);
});
