export { Container } from './container';
export type { ContainerOptions } from './container';
export type { ModuleRecord, ProviderRecord } from './module-record';
export { forwardRef } from './forward-ref';
export { ModuleRef } from './module-ref';
export type { ModuleRefGetOptions } from './module-ref';
export { RequestScope } from './request-scope';
export { RELEASE_BOUND, STOPPING_HOOKS } from './lifecycle';
export type {
  LifecycleHook,
  OnModuleInit,
  OnApplicationBootstrap,
  OnModuleDestroy,
  BeforeApplicationShutdown,
  OnApplicationShutdown,
} from './lifecycle';
