export { createTestClient } from './create-test-client';
export type { TestClient, TestClientOptions } from './create-test-client';
export { Test, TestingModuleBuilder, TestingModule } from './testing-module';
export type { OverrideBy } from './testing-module';
export { taskCalls } from './task-calls';
export type { TaskCallOutcome, TaskCalls, TaskInfo } from './task-calls';
