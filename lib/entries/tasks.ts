// `mcp-reflect/tasks`: tasks (docs/tasks.md), their one home: the options of `@Tool({ task })` and
// `McpModule.forRoot({ tasks })`, the in-memory store and the store interface; the Redis ones are mcp-reflect/redis's.
export { InMemoryTaskStore, TaskLimitError, TASKS_EXTENSION } from '../tasks';
export type { NewTask, TaskChange, TaskError, TaskEvent, TaskPage, TaskRecord, TaskStatus, TaskStore, TaskStoreOptions, TasksOptions } from '../tasks';
export type { ToolTaskOptions, ToolTaskSupport } from '../interfaces';
