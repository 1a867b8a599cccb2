import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { McpFactory, type McpApplication } from 'mcp-reflect';
import { deferred, within } from '../support/waiting';
import { probe, tasksModule } from './fixtures';
import { TASKS_AND_ELICITATION } from './modern-wire';

/**
 * 2026-07-28 tasks over a long-lived connection (what stdio serves), in memory. The SDK v2 client refuses a
 * `resultType: "task"` answer, so the spec speaks JSON-RPC on the client end of the SDK's in-memory transport.
 */
describe('tasks on 2026-07-28 over a connection (in memory)', () => {
  let app: McpApplication;
  let client: InMemoryTransport;
  const pending = new Map<number, (message: any) => void>();
  let id = 0;
  const send = (method: string, params: Record<string, unknown> = {}): Promise<any> => {
    const reply = deferred<any>();
    pending.set(++id, reply.resolve);
    const _meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'memory', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': TASKS_AND_ELICITATION,
    };
    void client.send({ jsonrpc: '2.0', id, method, params: { ...params, _meta } } as JSONRPCMessage);
    return within(reply.promise, `the answer to ${method}`);
  };

  beforeAll(async () => {
    app = await McpFactory.create(tasksModule());
    const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
    client = clientEnd;
    client.onmessage = (message: any) => pending.get(message.id)?.(message);
    await client.start();
    await app.connect(serverEnd);
  });
  afterAll(() => app.close());
  beforeEach(() => probe.reset());

  it('creates, polls and completes a task, and parks one on input until tasks/update answers it', async () => {
    const discover = await send('server/discover');
    expect(discover.result.capabilities.extensions['io.modelcontextprotocol/tasks']).toEqual({});
    const created = (await send('tools/call', { name: 'wait', arguments: {} })).result;
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    await within(probe.started.promise, 'the method to run');
    probe.release.resolve('memory');
    let task = (await send('tasks/get', { taskId: created.taskId })).result;
    for (let i = 0; task.status === 'working' && i < 100; i++) task = (await send('tasks/get', { taskId: created.taskId })).result;
    expect(task).toMatchObject({ status: 'completed', result: { content: [{ type: 'text', text: 'released: memory' }] } });

    const asking = (await send('tools/call', { name: 'confirm', arguments: { what: 'c.txt' } })).result;
    let parked = (await send('tasks/get', { taskId: asking.taskId })).result;
    for (let i = 0; parked.status !== 'input_required' && i < 100; i++) parked = (await send('tasks/get', { taskId: asking.taskId })).result;
    const [key] = Object.keys(parked.inputRequests);
    expect((await send('tasks/update', { taskId: asking.taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: false } } } })).result).toMatchObject({
      resultType: 'complete',
    });
    let done = (await send('tasks/get', { taskId: asking.taskId })).result;
    for (let i = 0; done.status !== 'completed' && i < 100; i++) done = (await send('tasks/get', { taskId: asking.taskId })).result;
    expect(done.result.content).toEqual([{ type: 'text', text: 'kept c.txt' }]);
  });
});
