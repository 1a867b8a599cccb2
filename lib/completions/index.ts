export { CompletionRegistry } from './completion-registry';
export type { CompletionContext, CompletionRef, CompletionResult, CompletionTargets } from './completion-registry';
