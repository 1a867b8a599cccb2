export { createTestClient } from './create-test-client';
export type { TestClient, TestClientOptions } from './create-test-client';
