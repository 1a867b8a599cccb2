import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

/**
 * Spawns a sample server over stdio with the SDK client, lists its tools, calls some, and prints the
 * results: what an MCP client such as Claude Desktop does with the server.
 */
async function demo(
  sample: 'weather' | 'calculator' | 'library',
  calls: { name: string; arguments: Record<string, unknown> }[],
  more?: (client: Client) => Promise<void>,
) {
  // Built: dist-samples/<sample>/main.js. From sources (tests): main.ts through the swc register hook.
  const compiled = __filename.endsWith('.js');
  const main = path.join(__dirname, sample, compiled ? 'main.js' : 'main.ts');
  const args = compiled ? [main] : ['-r', path.join(__dirname, '..', 'spec', 'support', 'register.js'), main];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' });
  const client = new Client({ name: 'mcp-reflect-demo', version: '1.0.0' });
  await client.connect(transport);
  console.log(`\n== ${sample}: spawned \`node ${path.relative(process.cwd(), main)}\` over stdio`);
  const { tools } = await client.listTools();
  console.log(`tools/list → ${tools.map((t) => t.name).join(', ')}`);
  for (const call of calls) {
    const result = await client.callTool(call);
    const text = (result.content as { type: string; text?: string }[]).map((c) => c.text ?? `[${c.type}]`).join(' ');
    console.log(`tools/call ${call.name} ${JSON.stringify(call.arguments)}\n  → ${result.isError ? 'isError: ' : ''}${text}`);
  }
  await more?.(client);
  await client.close();
}

async function main(): Promise<void> {
  await demo('calculator', [
    { name: 'add', arguments: { a: 2, b: 40 } },
    { name: 'round', arguments: { value: 2.5, mode: 'floor' } },
    { name: 'divide', arguments: { a: 1, b: 0 } },
  ]);
  await demo('weather', [
    { name: 'forecast', arguments: { city: 'Paris', days: 3 } },
    { name: 'forecast', arguments: { city: 'Paris', days: 30, units: 'kelvin' } },
    {
      name: 'planTrip',
      arguments: { email: 'ada@example.com', start: '2026-12-01T09:00:00Z', stops: [{ city: 'London', nights: 2 }] },
    },
    { name: 'packingList', arguments: { city: 'Reykjavik', nights: 9 } },
  ]);
  await demo('library', [], async (client) => {
    const { resources } = await client.listResources();
    console.log(`resources/list → ${resources.map((r) => r.uri).join(', ')}`);
    const book = await client.readResource({ uri: 'books://12' });
    console.log(`resources/read books://12\n  → ${(book.contents[0] as { text: string }).text}`);
    const prompt = await client.getPrompt({ name: 'discuss_book', arguments: { id: '12' } });
    const first = prompt.messages[0].content as { type: string; text?: string };
    console.log(`prompts/get discuss_book {"id":"12"}\n  → ${prompt.messages.length} message(s), first: ${first.text ?? `[${first.type}]`}`);
    const ids = await client.complete({ ref: { type: 'ref/resource', uri: 'books://{id}' }, argument: { name: 'id', value: '1' } });
    console.log(`completion/complete books://{id} id="1"\n  → ${ids.completion.values.join(', ')}`);
  });
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
