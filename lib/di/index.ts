export { Container } from './container';
export type { ModuleRecord, ProviderRecord } from './module-record';
