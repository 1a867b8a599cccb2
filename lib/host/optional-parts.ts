// Parts of the library loaded when an application asks for them: a server with no proxy, no OpenAPI document
// and no bearer auth loads none of them (docs/performance.md#import-cost-of-each-entry).
export const proxies = () => require('../proxy') as typeof import('../proxy');
export const openApis = () => require('../openapi') as typeof import('../openapi');
export const authGate = () => require('../auth/auth-gate') as typeof import('../auth/auth-gate');
