import 'reflect-metadata';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import calculatorTools from './__fixtures__/calculator.tools.json';
import weatherTools from './__fixtures__/weather.tools.json';

const root = path.resolve(__dirname, '..', '..');
const register = path.join(root, 'spec', 'support', 'register.js');

async function spawnSample(sample: string, protocolVersion?: '2026-07-28') {
  const stderr: string[] = [];
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', register, path.join(root, 'samples', sample, 'main.ts')],
    stderr: 'pipe',
    cwd: root,
  });
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString()));
  const client = new Client(
    { name: 'stdio-spec', version: '1.0.0' },
    protocolVersion ? { versionNegotiation: { mode: { pin: protocolVersion } } } : {},
  );
  await client.connect(transport);
  return { client, stderr };
}

describe('samples over stdio (spawned processes)', () => {
  it.each([undefined, '2026-07-28'] as const)('serves the calculator sample (era %s)', async (era) => {
    const { client } = await spawnSample('calculator', era);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'calculator', version: '1.0.0' });
      const { tools } = await client.listTools();
      expect(tools).toEqual(calculatorTools);
      const sum = await client.callTool({ name: 'sum', arguments: { values: [1, 2, 3.5] } });
      expect(sum.structuredContent).toEqual({ result: 6.5 });
      expect(sum.content).toEqual([{ type: 'text', text: '{"result":6.5}' }]);
      const divide = await client.callTool({ name: 'divide', arguments: { a: 1, b: 0 } });
      expect(divide).toMatchObject({ isError: true, content: [{ type: 'text', text: 'Cannot divide by zero: pass a non-zero b.' }] });
    } finally {
      await client.close();
    }
  });

  it.each([undefined, '2026-07-28'] as const)('serves the weather sample (era %s)', async (era) => {
    const { client, stderr } = await spawnSample('weather', era);
    try {
      expect(client.getServerVersion()).toMatchObject({ name: 'weather', version: '1.0.0' }); // from forRootAsync
      const { tools } = await client.listTools();
      expect(tools).toEqual(weatherTools);
      const forecast = await client.callTool({ name: 'forecast', arguments: { city: 'Tokyo', days: 2, units: 'imperial' } });
      expect(forecast.structuredContent).toEqual({ city: 'Tokyo', high: 55, low: 39, units: 'imperial' });
      const trip = await client.callTool({
        name: 'planTrip',
        arguments: { email: 'ada@example.com', start: '2026-12-01T09:00:00Z', stops: [{ city: 'Oslo', nights: 2 }] },
      });
      expect(trip.structuredContent).toEqual({
        summary: 'Oslo for ada@example.com',
        nights: 2,
        startsOn: '2026-12-01',
        unknownCities: ['Oslo'],
      });
      const packing = await client.callTool({ name: 'packingList', arguments: { city: 'Reykjavik' } });
      expect(packing.structuredContent).toMatchObject({
        items: ['4 shirts', 'toothbrush', 'warm jacket'],
        notes: ['Reykjavik is far north: packed a warm jacket', 'temperatures will be shown in °C'],
      });
    } finally {
      await client.close();
    }
    expect(stderr.join('')).toContain('weather MCP server ready on stdio');
  });

  it.each([undefined, '2026-07-28'] as const)('serves the library sample (era %s)', async (era) => {
    const { client } = await spawnSample('library', era);
    try {
      const { resources } = await client.listResources();
      expect(resources.map((r) => r.uri)).toEqual(
        expect.arrayContaining(['library://rules', 'library://logo.png', 'library://loans', 'books://1', 'books://12']),
      );
      const book = await client.readResource({ uri: 'books://2' });
      expect(JSON.parse((book.contents[0] as { text: string }).text)).toMatchObject({ id: 2, title: 'A Brief History of Time' });
      await expect(client.readResource({ uri: 'books://abc' })).rejects.toMatchObject({ code: -32602 });
      const { prompts } = await client.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['recommend', 'discuss_book']));
      const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'books://{id}' }, argument: { name: 'id', value: '1' } });
      expect(ids.completion.values).toEqual(['1', '12']);
    } finally {
      await client.close();
    }
  });
});
