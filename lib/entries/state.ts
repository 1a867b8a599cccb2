// `mcp-reflect/state`: state per caller (docs/state.md): the options of `McpModule.forRoot({ state })`, what
// `ctx.state` is, and the in-memory store; the Redis store is mcp-reflect/redis's.
export { InMemoryStateStore, StateError } from '../state';
export type { StateOptions, StateSetOptions, StateStore, StateStoreOptions, UserState } from '../state';
