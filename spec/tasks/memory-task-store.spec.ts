import { InMemoryTaskStore, TaskLimitError, type TaskEvent } from 'mcp-reflect';

const task = (taskId: string, owner = 'alice', ttlMs = 1_000, client?: string) => ({ taskId, owner, tool: 'job', ttlMs, pollIntervalMs: 100, ...(client ? { client } : {}) });

describe('InMemoryTaskStore', () => {
  let now = 1_000_000;
  const clock = () => now;

  it('keeps a task for its TTL and no longer (a fake clock, no waiting)', async () => {
    const store = new InMemoryTaskStore({ now: clock });
    const created = await store.create(task('t1', 'alice', 500));
    expect(created).toMatchObject({ status: 'working', createdAt: new Date(now).toISOString(), ttlMs: 500, expiresAt: now + 500 });
    now += 499;
    expect(await store.get('alice', 't1')).toMatchObject({ taskId: 't1' });
    now += 1;
    expect(await store.get('alice', 't1')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('scopes every task to its owner: another owner cannot read, change, answer or list it', async () => {
    const store = new InMemoryTaskStore({ now: clock });
    await store.create(task('t1', 'alice'));
    expect(await store.get('bob', 't1')).toBeUndefined();
    expect(await store.update('bob', 't1', { status: 'cancelled' }, ['working'])).toBeUndefined();
    expect(await store.answer('bob', 't1', { a: 1 })).toBeUndefined();
    expect((await store.list('bob', undefined, 10)).tasks).toEqual([]);
    expect((await store.list('alice', undefined, 10)).tasks.map((t) => t.taskId)).toEqual(['t1']);
    expect(await store.get('alice', 't1')).toMatchObject({ status: 'working' });
  });

  it('bounds the tasks of one client (its owner by default) and of the whole store, expired ones making room', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxTasksPerClient: 2, maxTasks: 3 });
    await store.create(task('a1', 'alice', 100));
    await store.create(task('a2', 'alice'));
    await expect(store.create(task('a3', 'alice'))).rejects.toThrow(TaskLimitError);
    await expect(store.create(task('a3', 'alice'))).rejects.toMatchObject({ rpcCode: -32600, data: { limit: 'maxTasksPerClient', max: 2 } });
    await store.create(task('b1', 'bob')); // another owner still has room
    await expect(store.create(task('c1', 'carol'))).rejects.toMatchObject({ data: { limit: 'maxTasks', max: 3 } });
    now += 100; // a1 expires
    await store.create(task('a3', 'alice'));
  });

  it('counts the tasks and bytes of every owner of one client against its bounds; another client still has room', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxTasksPerClient: 2, maxBytesPerClient: 4_000 });
    await store.create(task('s1', 'session:1', 1_000, 'peer:10.0.0.1'));
    await store.create(task('s2', 'session:2', 1_000, 'peer:10.0.0.1'));
    await expect(store.create(task('s3', 'session:3', 1_000, 'peer:10.0.0.1'))).rejects.toMatchObject({ data: { limit: 'maxTasksPerClient', max: 2 } });
    const big = { content: [{ type: 'text', text: 'x'.repeat(3_000) }] };
    expect(await store.update('session:1', 's1', { status: 'completed', result: big }, ['working'])).toMatchObject({ status: 'completed' });
    expect(await store.update('session:2', 's2', { status: 'completed', result: big }, ['working'])).toMatchObject({
      status: 'failed',
      error: { data: { limit: 'maxBytesPerClient' } },
    });
    await store.create(task('o1', 'session:4', 1_000, 'peer:10.0.0.2'));
  });

  it('drops every task of an owner: gone, their places and bytes free, the others kept, each published as cancelled', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxTasksPerClient: 3, maxBytesPerClient: 4_000 });
    const events: TaskEvent[] = [];
    store.watch((event) => events.push(event));
    const big = { content: [{ type: 'text', text: 'x'.repeat(3_000) }] };
    await store.create(task('one', 'session:1', 1_000, 'peer:10.0.0.1'));
    await store.update('session:1', 'one', { status: 'completed', result: big }, ['working']);
    await store.create(task('two', 'session:1', 1_000, 'peer:10.0.0.1'));
    await store.create(task('kept', 'session:2', 1_000, 'peer:10.0.0.1'));
    events.length = 0;
    expect(await store.dropOwner('session:1')).toBe(2);
    expect(events).toEqual([{ kind: 'cancelled', taskId: 'one' }, { kind: 'cancelled', taskId: 'two' }]);
    expect(await store.get('session:1', 'one')).toBeUndefined();
    expect((await store.list('session:1', undefined, 10)).tasks).toEqual([]);
    expect(await store.get('session:2', 'kept')).toMatchObject({ status: 'working' });
    expect(store.size).toBe(1);
    await store.create(task('three', 'session:3', 1_000, 'peer:10.0.0.1'));
    await store.create(task('four', 'session:3', 1_000, 'peer:10.0.0.1'));
    expect(await store.update('session:3', 'three', { status: 'completed', result: big }, ['working'])).toMatchObject({ status: 'completed' });
    expect(await store.dropOwner('session:none')).toBe(0);
  });

  it('gives a cancelled task’s place to a new task where a bound is reached, the one nearest its expiry first', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxTasksPerClient: 3, maxTasks: 4 });
    await store.create(task('done', 'alice', 1_000));
    await store.update('alice', 'done', { status: 'completed', result: { content: [] } }, ['working']);
    await store.create(task('later', 'alice', 2_000));
    await store.create(task('sooner', 'alice', 1_500));
    await expect(store.create(task('refused', 'alice'))).rejects.toMatchObject({ data: { limit: 'maxTasksPerClient' } });
    for (const id of ['later', 'sooner']) await store.update('alice', id, { status: 'cancelled' }, ['working']);
    await store.create(task('a4', 'alice'));
    expect(await store.get('alice', 'sooner')).toBeUndefined();
    expect(await store.get('alice', 'later')).toMatchObject({ status: 'cancelled' });
    expect(await store.get('alice', 'done')).toMatchObject({ status: 'completed' });
    await store.create(task('a5', 'alice'));
    expect(await store.get('alice', 'later')).toBeUndefined();
    // No cancelled task is left: the completed and working ones keep their places.
    await expect(store.create(task('a6', 'alice'))).rejects.toMatchObject({ data: { limit: 'maxTasksPerClient' } });
    // The store's bound too: bob's cancelled task gives its place to carol's.
    await store.create(task('b1', 'bob'));
    await expect(store.create(task('c1', 'carol'))).rejects.toMatchObject({ data: { limit: 'maxTasks' } });
    await store.update('bob', 'b1', { status: 'cancelled' }, ['working']);
    await store.create(task('c1', 'carol'));
    expect(await store.get('bob', 'b1')).toBeUndefined();
  });

  it('bounds bytes: a result that does not fit fails the task instead of being kept', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxBytes: 2_000 });
    await store.create(task('t1'));
    const big = { content: [{ type: 'text', text: 'x'.repeat(5_000) }] };
    const settled = await store.update('alice', 't1', { status: 'completed', result: big }, ['working']);
    expect(settled).toMatchObject({ status: 'failed', error: { code: -32600, data: { limit: 'maxBytes' } } });
    expect(settled?.result).toBeUndefined();
  });

  it('bounds the bytes of one client, so that one client cannot fill the store for all', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxBytes: 10_000, maxBytesPerClient: 4_000 });
    const big = { content: [{ type: 'text', text: 'x'.repeat(3_000) }] };
    for (const id of ['a1', 'a2']) await store.create(task(id, 'alice'));
    expect(await store.update('alice', 'a1', { status: 'completed', result: big }, ['working'])).toMatchObject({ status: 'completed' });
    const second = await store.update('alice', 'a2', { status: 'completed', result: big }, ['working']);
    expect(second).toMatchObject({ status: 'failed', error: { code: -32600, data: { limit: 'maxBytesPerClient', max: 4_000 } } });
    await store.create(task('b1', 'bob'));
    expect(await store.update('bob', 'b1', { status: 'completed', result: big }, ['working'])).toMatchObject({ status: 'completed' });
  });

  it('gives the bytes of expired tasks back when room is needed, though nobody read them', async () => {
    const store = new InMemoryTaskStore({ now: clock, maxBytes: 4_000 });
    const big = { content: [{ type: 'text', text: 'x'.repeat(3_000) }] };
    await store.create(task('old', 'alice', 100));
    expect(await store.update('alice', 'old', { status: 'completed', result: big }, ['working'])).toMatchObject({ status: 'completed' });
    now += 100; // 'old' expires, unread
    await store.create(task('new', 'bob'));
    expect(await store.update('bob', 'new', { status: 'completed', result: big }, ['working'])).toMatchObject({ status: 'completed' });
    expect(store.size).toBe(1);
  });

  it('never changes a terminal task, and only from the statuses given', async () => {
    const store = new InMemoryTaskStore({ now: clock });
    await store.create(task('t1'));
    expect(await store.update('alice', 't1', { status: 'completed', result: { content: [] } }, ['input_required'])).toBeUndefined();
    expect(await store.update('alice', 't1', { status: 'cancelled' }, ['working'])).toMatchObject({ status: 'cancelled' });
    expect(await store.update('alice', 't1', { status: 'completed', result: { content: [] } }, ['working', 'cancelled'])).toBeUndefined();
  });

  it('records answers to pending requests one by one, and tells watchers when the last one came', async () => {
    const store = new InMemoryTaskStore({ now: clock });
    const events: TaskEvent[] = [];
    store.watch((event) => events.push(event));
    await store.create(task('t1'));
    await store.update('alice', 't1', { status: 'input_required', inputRequests: { a: { method: 'elicitation/create' }, b: { method: 'roots/list' } } }, ['working']);
    const partial = await store.answer('alice', 't1', { a: { action: 'accept' }, unknown: {} });
    expect(partial).toMatchObject({ status: 'input_required', inputRequests: { b: { method: 'roots/list' } }, answers: { a: { action: 'accept' } } });
    expect(events).toEqual([]);
    const done = await store.answer('alice', 't1', { b: { roots: [] } });
    expect(done).toMatchObject({ status: 'working', answers: { a: { action: 'accept' }, b: { roots: [] } } });
    expect(done?.inputRequests).toBeUndefined();
    expect(events).toEqual([{ kind: 'answered', taskId: 't1' }]);
    await store.update('alice', 't1', { status: 'cancelled' }, ['working']);
    expect(events).toEqual([{ kind: 'answered', taskId: 't1' }, { kind: 'cancelled', taskId: 't1' }]);
  });

  it('pages an owner’s tasks', async () => {
    const store = new InMemoryTaskStore({ now: clock });
    for (const id of ['t1', 't2', 't3']) await store.create(task(id));
    const first = await store.list('alice', undefined, 2);
    expect(first.tasks.map((t) => t.taskId)).toEqual(['t1', 't2']);
    const second = await store.list('alice', first.nextCursor, 2);
    expect(second).toEqual({ tasks: [expect.objectContaining({ taskId: 't3' })] });
  });
});
