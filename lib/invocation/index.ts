export { compileMethod, compileOrExplain } from './method-compiler';
export type { CompiledMethod } from './method-compiler';
export type { MethodHost, RequestHandle, RequestScopes } from './method-host';
export { parseMethod } from './method-parser';
export type { ParsedParameter } from './method-parser';
export { capitalize, toRequestError, toolErrorText } from './call-policy';
export type { CallPolicy, ServerLogger } from './call-policy';
export { ElicitationForms } from './elicitation-forms';
export { pruneUndefined } from './prune';
