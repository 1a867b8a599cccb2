import 'reflect-metadata';
import { McpFactory, McpModule, Module, type FetchHandler, type PrecompiledValidators } from 'mcp-reflect';
import { BookTools } from '../systems/mcp-reflect-book';
import { AddTools } from '../systems/mcp-reflect-extra';

/**
 * (w) mcp-reflect on a Worker: the bench's `add` and `book` (class-validator DTO) tools, served by the application's
 * web-standard handler (`app.createFetchHandler`, stateless), with the validators `mcp-reflect validators` wrote
 * (a Worker refuses code generation: docs/runtimes.md). The decorator metadata is tsc's (bench/tsconfig.json); the
 * bundler only joins the JavaScript. Made on the first request, as samples/edge/worker.ts.
 */
@Module({ imports: [McpModule.forRoot({ name: 'mcp-reflect', version: '1.0.0' })], providers: [AddTools, BookTools] })
class EdgeModule {}

// Written by the bench's parent (precompiled.ts) before it bundles this file; joined into the bundle.
const { validators } = require('../servers/mcp-validators.js') as { validators: PrecompiledValidators };
let handler: Promise<FetchHandler> | undefined;

export default {
  async fetch(request: Request): Promise<Response> {
    handler ??= McpFactory.create(EdgeModule, { validators }).then((app) => app.createFetchHandler({ path: '/mcp', stateless: true }));
    // As samples/edge/worker.ts: Cloudflare's edge names the client in cf-connecting-ip. workerd alone has no edge in
    // front, so no per-client bound applies (the SDK's handler has none): the 32 connections of one load generator
    // on loopback are not taken for one client sending 32 bodies at once (maxBodiesInFlightPerClient, 16).
    return (await handler)(request, { remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined });
  },
};
