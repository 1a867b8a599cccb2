import 'reflect-metadata';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import type { Client } from '@modelcontextprotocol/client';
import { NotesModule } from '../../../samples/notes/notes.module';
import { RequestCounter } from '../../../samples/notes/notes.enhancers';
import { answer, connectAs } from '../../support/clients';

/** The notes sample (docs/pipeline.md) exercised as its readers would: as ada (editor), bob (reader), eve (nobody). */
describe('the notes sample', () => {
  let app: McpApplication;
  let ada: Client;
  let bob: Client;
  let eve: Client;
  let errors: jest.SpyInstance;
  beforeAll(async () => {
    errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    app = await McpFactory.create(NotesModule);
    [ada, bob, eve] = await Promise.all(['ada', 'bob', 'eve'].map((name) => connectAs(app, name)));
  });
  afterAll(async () => {
    await app.close();
    errors.mockRestore();
  });

  it('lists what each role may use', async () => {
    expect((await ada.listTools()).tools.map((t) => t.name)).toEqual(['list_notes', 'read_note', 'add_note']);
    expect((await bob.listTools()).tools.map((t) => t.name)).toEqual(['list_notes', 'read_note']);
    expect((await eve.listTools()).tools).toEqual([]);
  });

  it('adds a note by its author, trimmed, and refuses a blank one', async () => {
    const added = await ada.callTool({ name: 'add_note', arguments: { text: '  Call mum ' } });
    expect(added.structuredContent).toEqual({ id: 2, author: 'ada', text: 'Call mum' });
    expect(answer(await ada.callTool({ name: 'add_note', arguments: { text: '  ' } }))).toEqual({
      text: 'Invalid arguments for tool add_note: text: must not be blank',
      isError: true,
    });
    await expect(bob.callTool({ name: 'add_note', arguments: { text: 'x' } })).rejects.toMatchObject({ message: expect.stringContaining('Unknown tool: add_note') });
  });

  it('turns a missing note into a hint, and logs the time of each call to stderr', async () => {
    errors.mockClear();
    expect(answer(await bob.callTool({ name: 'read_note', arguments: { id: 42 } }))).toEqual({
      text: 'There is no note 42: call list_notes to see the ids.',
      isError: true,
    });
    expect(answer(await bob.callTool({ name: 'read_note', arguments: { id: 1 } })).isError).toBe(false);
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([expect.stringMatching(/^tools\/call read_note: \d+\.\d ms$/)]);
  });

  it('counts every request in its middleware, lists included', () => {
    const counts = app.get(RequestCounter).counts;
    expect(counts.get('tools/list')).toBe(3);
    expect(counts.get('tools/call')).toBeGreaterThanOrEqual(5);
  });
});
