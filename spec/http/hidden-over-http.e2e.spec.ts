import 'reflect-metadata';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Injectable, McpFactory, McpModule, Module, Param, Resource, Scopes, Tool, UseGuards, type CanActivate, type ExecutionContext, type McpAuth } from 'mcp-reflect';
import { JSON_AND_SSE, messagesOf, rawRequest } from '../support/http-helpers';
import { Arrivals } from '../support/waiting';

class AdminOnly implements CanActivate {
  /** What the guard was asked, as `<phase> <component>`: each check runs once per message. */
  static readonly asked: string[] = [];
  canActivate(context: ExecutionContext): boolean {
    AdminOnly.asked.push(`${(context as unknown as { phase: string }).phase} ${context.name}`);
    return (context.auth?.claims.roles as string[] | undefined)?.includes('admin') === true;
  }
}
@Injectable()
class Ops {
  @Tool() @UseGuards(AdminOnly) deploy(@Param('region', { header: 'Region' }) region: string): string { return `deployed to ${region}`; }
  @Tool() route(@Param('region', { header: 'Region' }) region: string): string { return region; }
  @Resource('ops://secrets') @Scopes('ops:admin') secrets(): string { return 's'; }
  @Resource('ops://plans') @UseGuards(AdminOnly) plans(): string { return 'p'; }
  @Resource('ops://status') status(): string { return 'g'; }
}
@Module({ imports: [McpModule.forRoot({ name: 'ops', version: '1.0.0' })], providers: [Ops] })
class OpsModule {}

/**
 * Issue 22, 8 and 13 on the endpoint `listen()` serves (2026-07-28): a tool or resource hidden from a caller by
 * its guards or scopes is a missing one on every path: its Mcp-Param-* header is not named (the call is
 * answered like a call of a tool that does not exist), and its updates never reach the caller's listen stream.
 */
it('keeps hidden tools and resources hidden over HTTP: header refusals and listen-stream updates', async () => {
  const app = await McpFactory.create(OpsModule);
  let url = '';
  await app.listen({ transport: 'http', host: '127.0.0.1', port: 0, auth: { issuer: 'https://as.example.com', insufficientScope: 'error', verify: async (token): Promise<McpAuth> => {
    const admin = token === 'ada';
    return { subject: token, clientId: 'c', scopes: admin ? ['ops:admin'] : [], issuer: 'https://as.example.com', expiresAt: Math.floor(Date.now() / 1000) + 60, claims: { sub: token, aud: url, iss: 'https://as.example.com', roles: admin ? ['admin'] : [] }, token };
  } } });
  url = await app.getUrl();
  const listen = async (token: string) => {
    const client = new Client({ name: token, version: '1' }, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    const heard = new Arrivals<string>();
    client.setNotificationHandler('notifications/resources/updated', (n) => heard.push(n.params.uri));
    await client.listen({ resourceSubscriptions: ['ops://secrets', 'ops://plans', 'ops://status'] });
    return { client, heard };
  };
  const eve = await listen('eve');
  const ada = await listen('ada');
  for (const uri of ['ops://secrets', 'ops://plans', 'ops://status', 'ops://status']) await app.notifyResourceUpdated(uri);
  expect(await ada.heard.until(4)).toEqual(['ops://secrets', 'ops://plans', 'ops://status', 'ops://status']);
  expect(await eve.heard.until(2)).toEqual(['ops://status', 'ops://status']);
  const call = async (token: string, name: string, region?: string) => {
    const body = { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name, arguments: { region: 'eu' }, _meta: { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' }, 'io.modelcontextprotocol/clientCapabilities': {} } } };
    const r = await rawRequest(url, { headers: { ...JSON_AND_SSE, authorization: `Bearer ${token}`, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': name, ...(region ? { 'mcp-param-region': region } : {}) }, body: JSON.stringify(body) });
    return { status: r.status, message: messagesOf(r.body).find((m) => m.id === 3) };
  };
  AdminOnly.asked.length = 0;
  const hidden = await call('eve', 'deploy');
  // The header check is made once, before dispatch: it asks whether eve may see the tool (no), and the handler,
  // told so, answers without asking again.
  expect(AdminOnly.asked).toEqual(['list deploy']);
  const missing = await call('eve', 'nothing');
  expect(JSON.stringify(hidden).split('deploy').join('nothing')).toBe(JSON.stringify(missing));
  expect((await call('eve', 'route')).status).toBe(400);
  expect((await call('ada', 'deploy')).status).toBe(400);
  AdminOnly.asked.length = 0;
  expect((await call('ada', 'deploy', 'eu')).message.result.content[0].text).toBe('deployed to eu');
  // Headers that agree: checked once before dispatch (no guard to ask), then the call's own guard.
  expect(AdminOnly.asked).toEqual(['call deploy']);
  await eve.client.close();
  await ada.client.close();
  await app.close();
});
