export { ResourceRegistry, resourceNotFound } from './resource-registry';
export { checkCacheHint } from './cache-hint';
export { subscriptionLimitMessage } from './resource.messages';
export { ResourceResult } from './resource-result';
export type { ResourceContents } from './resource-result';
export type { ResourceDescriptor, TemplateDescriptor, TemplateDefinition, UriMatcher } from './resource-definition';
