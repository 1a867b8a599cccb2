import 'reflect-metadata';
import { createTestClient, taskCalls, type TestClient } from 'mcp-reflect/testing';
import { JobsModule } from '../../samples/jobs/jobs.module';
import { answer } from '../support/clients';
import { startRedis, type RedisProcess } from '../support/redis-server';

const text = (result: { content?: unknown }) => answer(result).text;

/** The jobs sample (docs/state.md, docs/tasks.md#durable-queue): in memory, then two instances on Redis. */
describe('the jobs sample', () => {
  const clients: TestClient[] = [];
  const connect = async (auth?: { subject: string; clientId: string }) => {
    const client = await createTestClient(JobsModule, { capabilities: { tasks: {} } as never, ...(auth ? { auth } : {}) });
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.close();
  });

  describe('in memory', () => {
    it("keeps each connection's cart between its calls, apart from another's", async () => {
      const [ada, bob] = [await connect(), await connect()];
      await ada.callTool({ name: 'addToCart', arguments: { item: 'tea' } });
      expect(text(await ada.callTool({ name: 'addToCart', arguments: { item: 'milk' } }))).toBe('["tea","milk"]');
      expect(text(await bob.callTool({ name: 'showCart', arguments: {} }))).toBe('[]');
      expect(text(await ada.callTool({ name: 'checkOut', arguments: {} }))).toBe('Ordered 2 item(s): tea, milk.');
      expect(text(await ada.callTool({ name: 'showCart', arguments: {} }))).toBe('[]');
    });

    it('builds a report as a task, and refuses a year out of range before running anything', async () => {
      const client = await connect();
      const tasks = taskCalls(client);
      const outcome = await tasks.call({ name: 'buildReport', arguments: { year: 2026, msPerMonth: 1 } });
      if (!('task' in outcome)) throw new Error(`no task: ${JSON.stringify(outcome)}`);
      expect(text(await tasks.result(outcome.task.taskId))).toBe('Report 2026: 12 months.');
      expect(answer(await client.callTool({ name: 'buildReport', arguments: { year: 1999 } }))).toEqual({
        text: 'Invalid arguments for tool buildReport: year: must not be less than 2000',
        isError: true,
      });
    });
  });

  describe('two instances on Redis (REDIS_URL)', () => {
    let redis: RedisProcess;
    beforeAll(async () => {
      redis = await startRedis();
      process.env.REDIS_URL = redis.url;
    }, 30_000);
    afterAll(async () => {
      delete process.env.REDIS_URL;
      await redis?.stop();
    });

    it("shows a user's cart on the other instance, and runs a task started on one on a worker of either, read from the other", async () => {
      const user = { subject: 'ada', clientId: 'shop' };
      const [one, two] = [await connect(user), await connect(user)];
      await one.callTool({ name: 'addToCart', arguments: { item: 'tea' } });
      expect(text(await two.callTool({ name: 'showCart', arguments: {} }))).toBe('["tea"]');
      expect(text(await (await connect({ subject: 'bob', clientId: 'shop' })).callTool({ name: 'showCart', arguments: {} }))).toBe('[]');

      const outcome = await taskCalls(one).call({ name: 'buildReport', arguments: { year: 2027, msPerMonth: 5 } });
      if (!('task' in outcome)) throw new Error(`no task: ${JSON.stringify(outcome)}`);
      expect(text(await taskCalls(two).result(outcome.task.taskId, { timeout: 20_000 }))).toBe('Report 2027: 12 months.');
      expect(text(await two.callTool({ name: 'checkOut', arguments: {} }))).toBe('Ordered 1 item(s): tea.');
    }, 40_000);
  });
});
