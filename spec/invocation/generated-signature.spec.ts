import 'reflect-metadata';
import { BootstrapErrorCode, Injectable, McpFactory, McpModule, Module, Param, Tool, type GeneratedMetadata, type JsonSchema, type McpModuleOptions } from 'mcp-reflect';
import { createTestClient } from 'mcp-reflect/testing';

/**
 * The generated file is matched to the running method by what every build keeps (lib/invocation/generated-signature.ts):
 * here the class is written as esbuild leaves it after renaming (`url` → `url2`, `date` → `date4`), and the entry as
 * `mcp-reflect generate` wrote it from the sources. spec/runtimes/renamed-bundle.e2e.spec.ts does the same with a real bundle.
 */
@Injectable()
class BundledTools {
  @Tool()
  lookup(@Param() url2: string, @Param() date4: string, @Param({ optional: true }) times = 1): string {
    return `${url2} ${date4} x${times}`;
  }
}

function appWith(lines: string[], warnings?: McpModuleOptions['warnings']) {
  @Module({
    imports: [McpModule.forRoot({ name: 'bundled', version: '1.0.0', warnings, logger: { error: (m: string) => lines.push(`error: ${m}`), warn: (m: string) => lines.push(m) } })],
    providers: [BundledTools],
  })
  class AppModule {}
  return AppModule;
}

const entry = (fingerprint: string, dateSchema: JsonSchema = { type: 'string' }): GeneratedMetadata => ({
  version: 1,
  generator: 'mcp-reflect@test',
  classes: [
    {
      name: 'BundledTools',
      file: 'src/lookup.tools.ts',
      ref: BundledTools,
      methods: {
        lookup: {
          fingerprint,
          params: [
            { name: 'url', index: 0, schema: { type: 'string' } },
            { name: 'date', index: 1, schema: dateSchema },
            { name: 'times', index: 2, schema: { type: 'number' }, optional: true, default: 1 },
          ],
        },
      },
    },
  ],
});

describe('generated metadata against a method whose parameters a bundler renamed', () => {
  it('matches by shape, advertises the names of the file and binds by position, with no warning', async () => {
    const lines: string[] = [];
    const client = await createTestClient(appWith(lines), { metadata: entry('lookup(url, date, times=)') });
    const { tools } = await client.listTools();
    expect(tools[0].inputSchema).toEqual({
      type: 'object',
      properties: { url: { type: 'string' }, date: { type: 'string' }, times: { type: 'number', default: 1 } },
      required: ['url', 'date'],
      additionalProperties: false,
    });
    const result = await client.callTool({ name: 'lookup', arguments: { url: 'u', date: 'd', times: 3 } });
    expect(result.content).toEqual([{ type: 'text', text: 'u d x3' }]);
    expect(lines).toEqual([]);
    await client.close();
  });

  it('a default that moved is a real change: the message says what differs and the fix', async () => {
    const failure = await McpFactory.create(appWith([]), { metadata: entry('lookup(url, date=, times)') }).catch((e: unknown) => e);
    expect(failure).toMatchObject({
      code: BootstrapErrorCode.GeneratedMetadataStale,
      message:
        "Cannot build tool 'lookup' (BundledTools.lookup): the generated metadata is stale. It was generated from src/lookup.tools.ts for " +
        'lookup(url, date=, times), but the running method, lookup(url2, date4, times=) (names as compiled), differs: ' +
        "parameter #1 'date' is a parameter without a default, expected a parameter with a default; " +
        "parameter #2 'times' is a parameter with a default, expected a parameter without a default.\n" +
        'Fix: run `npx mcp-reflect generate`, then build (and bundle) again, so the file and the running code come from the same sources ' +
        "(`mcp-reflect generate --check` in CI fails a stale file). Names are not compared: bundlers rename parameters, and the file's names are advertised.",
    });
  });

  it('a declared type the file contradicts is a real change (design:paramtypes says String, the file number)', async () => {
    const failure = await McpFactory.create(appWith([]), { metadata: entry('lookup(url, date, times=)', { type: 'number' }) }).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: BootstrapErrorCode.GeneratedMetadataStale });
    expect((failure as Error).message).toContain("differs: parameter #1 'date' is declared String, expected number.\n");
  });

  it('what the build cannot tell apart is no contradiction (a literal union is String in design:paramtypes)', async () => {
    const client = await createTestClient(appWith([]), { metadata: entry('lookup(url, date, times=)', { type: 'string', enum: ['today', 'tomorrow'] }) });
    expect((await client.listTools()).tools[0].inputSchema.properties?.date).toEqual({ type: 'string', enum: ['today', 'tomorrow'] });
    await client.close();
  });
});

describe('without generated metadata, a name that looks bundler-renamed', () => {
  it('is served as compiled, with one warning per parameter naming the fix', async () => {
    const lines: string[] = [];
    const client = await createTestClient(appWith(lines));
    expect(Object.keys((await client.listTools()).tools[0].inputSchema.properties ?? {})).toEqual(['url2', 'date4', 'times']);
    expect(lines).toEqual([
      "BundledTools.lookup: parameter #0 is advertised as 'url2', a name read from the compiled code that looks renamed by a bundler " +
        "(esbuild renames 'url' to 'url2' when a bundled module also declares 'url' at top level).\n" +
        "Fix: name it with @Param('url') (or @Param('url2') if that is its name), or load the metadata `npx mcp-reflect generate` writes " +
        "(McpFactory.create(AppModule, { metadata })), whose names are the ones you wrote (docs/runtimes.md#bundles-and-parameter-names). " +
        "Silence it with McpModule.forRoot({ warnings: { renamedParameters: false } }); 'error' stops the bootstrap instead.",
      expect.stringMatching(/^BundledTools\.lookup: parameter #1 is advertised as 'date4'/),
    ]);
    await client.close();
  });

  it("'error' stops the bootstrap; false is silent; an explicit name never warns", async () => {
    await expect(McpFactory.create(appWith([], { renamedParameters: 'error' }))).rejects.toMatchObject({
      code: BootstrapErrorCode.RenamedParameter,
      message: expect.stringContaining("parameter #0 is advertised as 'url2'"),
    });
    const lines: string[] = [];
    await (await McpFactory.create(appWith(lines, { renamedParameters: false }))).close();
    expect(lines).toEqual([]);

    @Injectable()
    class NamedTools {
      @Tool()
      hash(@Param('base64') base64: string, @Param() line1: string): string {
        return base64 + line1;
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'named', version: '1.0.0', warnings: { renamedParameters: 'error' } })], providers: [NamedTools] })
    class NamedModule {}
    await (await McpFactory.create(NamedModule)).close();
  });
});
