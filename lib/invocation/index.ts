export { compileMethod, compileOrExplain } from './method-compiler';
export type { CompiledMethod } from './method-compiler';
export { runMethod } from './method-runner';
export type { MethodOutcome } from './method-runner';
export type { MethodHost, ScopedHost } from './method-host';
export { parseToolMethod } from './method-parser';
export type { ParsedParameter } from './method-parser';
export { toRequestError } from './call-policy';
export type { CallPolicy, ServerLogger } from './call-policy';
