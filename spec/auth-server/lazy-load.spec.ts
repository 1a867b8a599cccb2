import { execFileSync } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(__dirname, '..', '..');

/** oidc-provider and openid-client are optional peers: loaded when a server with `auth.server` starts, never before. */
describe('the authorization server loads its engines lazily', () => {
  const loaded = (source: string) =>
    JSON.parse(
      execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', `${source}; console.log(JSON.stringify(Object.keys(require.cache).filter((f) => /node_modules\\/(oidc-provider|openid-client|oauth4webapi|koa)\\//.test(f)).map((f) => f.split('node_modules/')[1].split('/')[0]).filter((v, i, a) => a.indexOf(v) === i).sort()))`], {
        cwd: root,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    ) as string[];

  it('the main entry and mcp-reflect/auth-server load none of them', () => {
    expect(loaded("require('./lib/index.ts'); require('./lib/entries/auth-server.ts')")).toEqual([]);
  });

  it('a server with auth.server loads them as it starts', () => {
    const start = "const { AuthorizationServer } = require('./lib/auth/server/authorization-server.ts'); new AuthorizationServer({ upstream: { issuer: 'http://127.0.0.1:9', clientId: 'x' } }, 'http://127.0.0.1:9/mcp', [], { warn() {} })";
    expect(loaded(start)).toEqual(expect.arrayContaining(['oidc-provider', 'openid-client']));
  });

  it('mcp-reflect/auth-server loads the stores and the presets of the library only: neither the resource server\'s gate, DPoP, the pipeline nor the authorization server', () => {
    const source = "require('./lib/entries/auth-server.ts'); console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes('/lib/')).map((f) => f.split('/lib/')[1])))";
    const modules = JSON.parse(execFileSync(process.execPath, ['-r', './spec/support/register.js', '-e', source], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })) as string[];
    expect(modules).toEqual(expect.arrayContaining(['auth/server/auth-stores.ts', 'auth/server/upstream-presets.ts']));
    expect(modules.filter((f) => /^(pipeline|validation|decorators|server)\/|auth\/(auth-gate|dpop|authenticator)|authorization-server|dpop-issuing/.test(f))).toEqual([]);
    expect(modules.length).toBeLessThan(25);
  });
});
