import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Body } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ApplicationConfig, ExternalContextCreator, NestFactory } from '@nestjs/core';
import { McpService } from 'mcp-reflect/nest';
import { createTestClient } from 'mcp-reflect/testing';
import { appModule } from './fixtures';

/**
 * Issue 41, item 5: mcp-reflect/nest reaches Nest through its public API only. The private members of the
 * Nest objects it is handed (those its .d.ts declares `private`) are watched: a read from mcp-reflect's own
 * code (a frame in lib/) fails the spec, whatever reads Nest's own code makes are let through (and counted, so
 * the watch is seen to be live).
 */
const text = (result: unknown) => ((result as { content: { text: string }[] }).content ?? [])[0]?.text;

const core = dirname(require.resolve('@nestjs/core/package.json'));

/** The names a .d.ts declares `private` (fields and methods) in its one class. */
function privateMembers(dts: string): string[] {
  const source = readFileSync(join(core, dts), 'utf8');
  return [...source.matchAll(/^\s+private\s+(?:static\s+)?(?:readonly\s+)?(\w+)/gm)].map((m) => m[1]);
}

interface Watch {
  readonly ours: string[];
  readonly nests: string[];
}

/** Turns every private member of `object` into an accessor that records who reads it. */
function watch(object: object, names: readonly string[], label: string, into: Watch): void {
  for (const name of names) {
    let value = (object as Record<string, unknown>)[name];
    Object.defineProperty(object, name, {
      configurable: true,
      set(next: unknown) {
        value = next;
      },
      get() {
        const reader = new Error().stack!.split('\n')[2] ?? '';
        if (/[\\/]lib[\\/]/.test(reader) && !reader.includes('node_modules')) into.ours.push(`${label}.${name} read at ${reader.trim()}`);
        else into.nests.push(`${label}.${name}`);
        return value;
      },
    });
  }
}

describe("mcp-reflect/nest reads no private member of Nest's objects", () => {
  it("runs guards, interceptors, pipes, filters and request-scoped enhancers with ExternalContextCreator's and ApplicationConfig's private members watched", async () => {
    const creatorPrivates = privateMembers('helpers/external-context-creator.d.ts');
    const configPrivates = privateMembers('application-config.d.ts');
    expect(creatorPrivates).toEqual(expect.arrayContaining(['guardsContextCreator', 'guardsConsumer', 'interceptorsContextCreator', 'interceptorsConsumer', 'pipesContextCreator', 'filtersContextCreator']));
    expect(configPrivates).toEqual(expect.arrayContaining(['globalGuards', 'globalPipes']));

    // Not yet initialised: the MCP server is built (and the route's paths taken) during init, after the watch is set.
    const app = await NestFactory.create(appModule({ name: 'nest-app', version: '1.0.0', http: { path: '/mcp' } }), { logger: false });
    const reads: Watch = { ours: [], nests: [] };
    watch(app.get(ExternalContextCreator), creatorPrivates, 'ExternalContextCreator', reads);
    watch(app.get(ApplicationConfig), configPrivates, 'ApplicationConfig', reads);
    app.setGlobalPrefix('api');
    await app.init();
    const client = await createTestClient(app.get(McpService).application, { auth: { subject: 'root', scopes: ['admin'] } });
    try {
      expect((await client.listTools()).tools.map((t) => t.name)).toEqual(expect.arrayContaining(['secret', 'rootWho']));
      expect(text(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada'); // a class guard
      expect(text(await client.callTool({ name: 'secret', arguments: {} }))).toBe('the secret'); // a guard reading @Roles() through Reflector
      expect(text(await client.callTool({ name: 'shout', arguments: { text: 'quiet' } }))).toBe('QUIET'); // an interceptor
      expect(text(await client.callTool({ name: 'trimmed', arguments: { text: '  padded  ' } }))).toBe('[padded]'); // a pipe
      expect(text(await client.callTool({ name: 'order', arguments: { item: 'tea' } }))).toBe('sorry: no tea left'); // a filter
      expect(text(await client.callTool({ name: 'rootWho', arguments: {} }))).toMatch(/^root #\d+$/); // a guard on a request-scoped class
    } finally {
      await client.close();
      await app.close();
    }
    expect([...new Set(reads.ours)]).toEqual([]);
    // The watch is live: Nest's own code read its members while running the enhancers.
    expect(reads.nests).toEqual(expect.arrayContaining(['ExternalContextCreator.guardsContextCreator', 'ExternalContextCreator.interceptorsConsumer', 'ApplicationConfig.globalGuards']));
  });

  it("answers an error, never a wrong value, when Nest 11 hands the method's stand-in another library's arguments (its cache by class and method name)", async () => {
    // Another library wraps a class named like the component class, with a method of the same name and a Nest param
    // decorator, through the same ExternalContextCreator (as @nestjs/graphql does with a resolver).
    function impostor() {
      class GreetTools {
        shout(@Body() text: string) {
          return text;
        }
      }
      return GreetTools;
    }
    const Impostor = impostor();
    const app = await NestFactory.create(appModule({ name: 'nest-app', version: '1.0.0', http: false }), { logger: false });
    app.get(ExternalContextCreator).create(new Impostor(), Impostor.prototype.shout as never, 'shout', ROUTE_ARGS_METADATA, { exchangeKeyForValue: () => 'theirs' }, undefined, undefined, undefined, 'graphql');
    await app.init();
    const client = await createTestClient(app.get(McpService).application);
    try {
      const answer = await client.callTool({ name: 'shout', arguments: { text: 'quiet' } });
      expect(answer).toMatchObject({ isError: true });
      expect(text(answer)).not.toMatch(/QUIET|THEIRS|UNDEFINED/);
    } finally {
      await client.close();
      await app.close();
    }
  });
});
