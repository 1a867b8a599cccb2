export { PromptRegistry } from './prompt-registry';
export type { PromptDefinition, PromptDescriptor } from './prompt-registry';
export { userMessage, assistantMessage } from './prompt-result';
export type { PromptMessage, PromptResult } from './prompt-result';
