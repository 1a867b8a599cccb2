// The HTTP transport's entry points, loaded when an application first serves HTTP (lib/transports/index.ts):
// a server on stdio or in memory loads none of it, nor the auth gate it runs.
export { createNodeHandler, listenHttp, listenHttpEndpoints } from './node-http';
export { createFetchHandler } from './fetch-handler';
