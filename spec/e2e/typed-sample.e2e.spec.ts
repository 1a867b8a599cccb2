import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const root = path.resolve(__dirname, '..', '..');
const text = (result: { content?: unknown }) => (result.content as { text: string }[])[0]!.text;

/** samples/typed, spawned as a user runs it: every schema from the generated samples/typed/mcp-metadata.ts. */
describe('the typed sample (generated types, over stdio)', () => {
  let client: Client;

  beforeAll(async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', './spec/support/register.js', 'samples/typed/main.ts'],
      cwd: root,
      stderr: 'pipe',
      env: { ...process.env, NODE_OPTIONS: '' } as Record<string, string>,
    });
    client = new Client({ name: 'typed-sample-spec', version: '1.0.0' });
    await client.connect(transport);
  }, 120_000);
  afterAll(() => client.close());

  it('advertises the types and JSDoc that no @Param() option restates', async () => {
    const { tools } = await client.listTools();
    const plan = tools.find((t) => t.name === 'plan')!;
    expect(plan.description).toBe('Plan a trip through several cities');
    expect(plan.inputSchema.required).toEqual(['stops']);
    expect(plan.inputSchema.properties).toMatchObject({
      transport: { type: 'string', enum: expect.arrayContaining(['train', 'plane', 'car']), default: 'train', description: 'how to travel between them' },
      budget: { type: 'object', required: ['perDay', 'currency'], description: 'spending limit, if any' },
      stops: {
        type: 'array',
        items: {
          properties: {
            city: { type: 'string', minLength: 2, examples: ['Lisbon'], description: 'City name' },
            nights: { type: 'number', default: 1 },
            arrival: { type: ['string', 'null'], format: 'date-time', default: null },
          },
          required: ['city'],
        },
      },
    });
    const rate = tools.find((t) => t.name === 'rate')!;
    expect(rate.inputSchema.properties).toEqual({
      scores: { type: 'object', additionalProperties: { type: 'number' }, description: 'a score from 0 to 10 per city' },
      note: { type: ['string', 'null'], description: 'an optional remark, or null', default: null },
    });
  });

  it('calls with DTO instances, Dates, defaults and nullable values', async () => {
    const planned = await client.callTool({
      name: 'plan',
      arguments: { stops: [{ city: 'Lisbon', nights: 2, arrival: '2027-05-01T00:00:00Z' }, { city: 'Porto' }], budget: { perDay: 80, currency: 'EUR' } },
    });
    expect(text(planned)).toBe('Lisbon → Porto by train: 3 night(s) from 2027-05-01, about 240 EUR');
    const refused = await client.callTool({ name: 'plan', arguments: { stops: [{ city: 'Lisbon' }], transport: 'boat' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/^Invalid arguments for tool plan: transport/);
    expect(text(await client.callTool({ name: 'rate', arguments: { scores: { Lisbon: 9, Porto: 8 }, note: null } }))).toBe('Best: Lisbon (9)');
  });
});
