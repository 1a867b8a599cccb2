// `mcp-reflect/tasks`: the task stores and their types (docs/tasks.md), for code that implements or configures a
// store without the rest of the server. The main entry exports the same classes.
export { InMemoryTaskStore, TaskLimitError, TASKS_EXTENSION } from '../tasks';
export type { NewTask, TaskChange, TaskError, TaskEvent, TaskPage, TaskRecord, TaskStatus, TaskStore, TaskStoreOptions, TasksOptions } from '../tasks';
export type { ToolTaskOptions, ToolTaskSupport } from '../interfaces';
