import 'reflect-metadata';
import { createTestClient, Test, type TestClient } from 'mcp-reflect/testing';
import { ConfigService } from '../../samples/weather/config.module';
import { WeatherModule } from '../../samples/weather/weather.module';
import { answer } from '../support/clients';

/** The weather sample's pipeline: a role guard with a custom decorator, a rate limit, a cache and the timing log. */
describe('the weather sample', () => {
  let logged: jest.SpyInstance;
  beforeEach(() => {
    logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => logged.mockRestore());

  const asRole = async (role: string): Promise<TestClient> => {
    const moduleRef = await Test.createTestingModule({ imports: [WeatherModule] })
      .overrideProvider(ConfigService)
      .useValue({ serverName: 'weather', defaultUnits: 'metric', role })
      .compile();
    return createTestClient(moduleRef);
  };
  const forecast = { name: 'forecast', arguments: { city: 'Paris', days: 2 } };

  it('hides the admin tool from travellers, and lets admins clear the forecast cache', async () => {
    const traveller = await asRole('traveller');
    const admin = await asRole('admin');
    try {
      expect((await traveller.listTools()).tools.map((t) => t.name)).toEqual(['forecast', 'planTrip', 'packingList']);
      expect((await admin.listTools()).tools.map((t) => t.name)).toEqual(['forecast', 'planTrip', 'packingList', 'clearForecastCache']);
      await expect(traveller.callTool({ name: 'clearForecastCache', arguments: {} })).rejects.toMatchObject({ code: -32602 });

      const first = await admin.callTool(forecast);
      expect(await admin.callTool(forecast)).toEqual(first);
      expect(answer(await admin.callTool({ name: 'clearForecastCache', arguments: {} }))).toEqual({ text: 'Cleared 1 cached forecast(s).', isError: false });
    } finally {
      await Promise.all([traveller.close(), admin.close()]);
    }
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])("does not take '%s' for a city", async (city) => {
    const client = await asRole('traveller');
    try {
      expect(answer(await client.callTool({ name: 'forecast', arguments: { city, days: 1 } }))).toEqual({
        text: `Unknown city '${city}': try Paris, London, Tokyo or Reykjavik.`,
        isError: true,
      });
    } finally {
      await client.close();
    }
  });

  it('logs one JSON line per call on stderr, without the arguments', async () => {
    const client = await asRole('traveller');
    try {
      await client.callTool(forecast);
      const lines = logged.mock.calls.map((call) => String(call[0])).filter((line) => line.startsWith('{'));
      expect(lines.map((line) => JSON.parse(line))).toEqual([
        { method: 'tools/call', kind: 'tool', name: 'forecast', durationMs: expect.any(Number), outcome: 'ok' },
      ]);
      expect(lines[0]).not.toContain('Paris');
    } finally {
      await client.close();
    }
  });

  it('limits each session to a burst of 30 calls, then answers when to try again', async () => {
    const client = await asRole('traveller');
    try {
      for (let i = 0; i < 30; i++) expect(answer(await client.callTool(forecast)).isError).toBe(false);
      const limited = answer(await client.callTool(forecast));
      expect(limited.isError).toBe(true);
      expect(limited.text).toMatch(/^Rate limit exceeded for tool 'forecast': try again in 1 s\.$/);
    } finally {
      await client.close();
    }
  });
});
