import 'reflect-metadata';
import { createTestClient, type TestClient } from 'mcp-reflect/testing';
import { gatewayModule } from '../../samples/gateway/gateway.module';
import { startInventoryApi } from '../../samples/gateway/inventory.api';
import { everythingStdio } from '../support/everything';
import { waitFor } from '../support/waiting';

const text = (result: unknown) => ((result as { content?: { text?: string }[] }).content ?? [])[0]?.text;

/** samples/gateway: two local feature modules under their namespaces and the reference server proxied, on one endpoint. */
describe('the gateway sample', () => {
  let client: TestClient;
  let inventory: Awaited<ReturnType<typeof startInventoryApi>>;
  beforeAll(async () => {
    inventory = await startInventoryApi();
    client = await createTestClient(gatewayModule({ everything: everythingStdio, inventoryUrl: inventory.url }));
  });
  afterAll(async () => {
    await client?.close();
    await inventory?.close();
  });

  it('lists the local modules under their namespaces beside the proxied reference server', async () => {
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['catalog_search', 'orders_place', 'orders_list', 'everything_echo', 'everything_get-sum', 'inventory_getStock', 'inventory_listStock']));
    expect(names.every((name) => /^(catalog|orders|everything|inventory|saved)_/.test(name))).toBe(true);
    expect((await client.listPrompts()).prompts.map((p) => p.name)).toEqual(expect.arrayContaining(['orders_confirm', 'everything_simple-prompt']));
    expect((await client.listResources()).resources.map((r) => r.uri)).toContain('books://catalog/all');
  });

  it('calls local and proxied tools through the one endpoint, with validation and tool errors', async () => {
    const found = await client.callTool({ name: 'catalog_search', arguments: { text: 'le guin' } });
    expect((found.structuredContent as { books: { title: string }[] }).books.map((b) => b.title)).toEqual(['The Dispossessed', 'The Left Hand of Darkness']);
    expect(text(await client.callTool({ name: 'orders_place', arguments: { isbn: '9780553283686', copies: 2 } }))).toBe('Order 1: 2 × 9780553283686');
    expect(JSON.parse(text(await client.callTool({ name: 'orders_list', arguments: {} }))!)).toEqual([{ id: 1, isbn: '9780553283686', copies: 2 }]);
    const unknown = await client.callTool({ name: 'orders_place', arguments: { isbn: '0000000000000', copies: 1 } });
    expect(unknown).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('search the catalogue first') }] });
    const invalid = await client.callTool({ name: 'orders_place', arguments: { isbn: 'abc', copies: 1 } });
    expect(invalid).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('isbn: must match the pattern') }] });
    expect(text(await client.callTool({ name: 'everything_get-sum', arguments: { a: 2, b: 40 } }))).toBe('The sum of 2 and 40 is 42.');
    const stock = await client.callTool({ name: 'inventory_getStock', arguments: { isbn: '9780553283686' } });
    expect(stock.structuredContent).toEqual({ isbn: '9780553283686', copies: 12 });
    const missing = await client.callTool({ name: 'inventory_getStock', arguments: { isbn: '9780000000000' } });
    expect(missing).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('404') }] });
    const books = await client.readResource({ uri: 'books://catalog/all' });
    expect(JSON.parse((books.contents[0] as { text: string }).text)).toHaveLength(3);
  });

  it('serves the saved searches provider: a tool per search, and a new one after saving it (list_changed)', async () => {
    const changed: string[] = [];
    client.setNotificationHandler('notifications/tools/list_changed', () => void changed.push('tools'));
    const le = await client.callTool({ name: 'saved_le_guin', arguments: {} });
    expect((le.structuredContent as { books: unknown[] }).books).toHaveLength(2);
    expect(text(await client.callTool({ name: 'saved_save', arguments: { name: 'hyperion', text: 'hyperion' } }))).toBe('Saved: call saved_hyperion');
    await waitFor(() => changed.length > 0);
    const found = await client.callTool({ name: 'saved_hyperion', arguments: {} });
    expect((found.structuredContent as { books: { title: string }[] }).books.map((b) => b.title)).toEqual(['Hyperion']);
    const bad = await client.callTool({ name: 'saved_save', arguments: { name: 'Not A Name', text: 'x' } });
    expect(bad).toMatchObject({ isError: true, content: [{ text: expect.stringContaining('Invalid arguments for tool saved_save: name: must match the pattern') }] });
  });
});
