import type * as ClientSdk from '@modelcontextprotocol/client';
import type * as HttpServe from './http-serve';

// The client side and the HTTP glue load on first use, so that a stdio server process (cold start) loads
// only the system under test, as a real server would.
export const clientSdk = (): typeof ClientSdk => require('@modelcontextprotocol/client');
export const httpServe = (): typeof HttpServe => require('./http-serve');
