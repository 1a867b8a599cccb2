export type { StateStore } from './state-store';
export { entryBytes } from './state-store';
export { InMemoryStateStore } from './memory-state-store';
export type { StateStoreOptions } from './memory-state-store';
export { StateError } from './state.error';
export { resolveStateOptions } from './state-options';
export type { ResolvedStateOptions, StateOptions } from './state-options';
export { UserState } from './user-state';
export type { StateBinding, StateSetOptions } from './user-state';
