export { CompletionRegistry } from './completion-registry';
export type { CompleterSource, CompletionContext, CompletionRef, CompletionResult, CompletionTargets } from './completion-registry';
