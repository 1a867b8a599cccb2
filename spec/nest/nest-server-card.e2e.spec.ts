import 'reflect-metadata';
import { appModule, listenNest } from './fixtures';
import type { INestApplication } from '@nestjs/common';

const CARD = { name: 'io.github.acme/greeter', description: 'Greets people.' };

type Platform = 'express' | 'fastify';

/** The server card (SEP-2127) of a Nest application: on its HTTP adapter as the protected resource metadata is. */
describe.each<Platform>(['express', 'fastify'])('mcp-reflect/nest with http.serverCard (%s)', (platform) => {
  let app: INestApplication | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("route mount: <prefix>/<route>/server-card and the well-known path, the card's endpoint from the request", async () => {
    const served = await listenNest(appModule({ name: 'nest-card', version: '1.2.0', http: { serverCard: CARD } }), platform, (nest) => nest.setGlobalPrefix('api'));
    app = served.app;
    const response = await fetch(`${served.base}/api/mcp/server-card`);
    expect([response.status, response.headers.get('content-type'), response.headers.get('access-control-allow-origin')]).toEqual([200, 'application/mcp-server-card+json', '*']);
    const card = (await response.json()) as { name: string; version: string; remotes: { url: string }[] };
    expect([card.name, card.version, card.remotes[0]?.url]).toEqual(['io.github.acme/greeter', '1.2.0', `${served.base}/api/mcp`]);
    const wellKnown = await fetch(`${served.base}/.well-known/mcp/server-card`);
    expect(wellKnown.status).toBe(200);
    expect(((await wellKnown.json()) as { name: string }).name).toBe('io.github.acme/greeter');
  });

  it("server mount: the card is answered ahead of the framework, at the public url given", async () => {
    const served = await listenNest(appModule({ name: 'nest-card', version: '1.2.0', http: { mount: 'server', serverCard: { ...CARD, url: 'https://greeter.example/mcp' } } }), platform);
    app = served.app;
    const card = (await (await fetch(`${served.base}/mcp/server-card`)).json()) as { remotes: { url: string }[] };
    expect(card.remotes[0]?.url).toBe('https://greeter.example/mcp');
    expect((await fetch(`${served.base}/.well-known/mcp/server-card`)).status).toBe(200);
  });
});
