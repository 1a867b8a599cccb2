import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { InMemoryTransport, ProtocolError, ProtocolErrorCode, Server, specTypeSchemas, type SpecTypeName, type StandardSchemaV1 } from '@modelcontextprotocol/server';
import { sdkVersion } from '../support/sdk-version';

/**
 * What lib/server/error-mapping.ts relies on in the SDK, shown on the real SDK (a low-level `Server` and the
 * official `Client`, in memory). The SDK has no error class or code for "the params failed the schema", so the
 * library tells its errors apart by type and code (docs in error-mapping.ts); if an upgrade changes a shape
 * below, this spec fails naming the SDK version and what to change.
 */
const SDK = sdkVersion('server');

/** Runs `check`; a failure says which contract of the SDK broke and where the library relies on it. */
function contract(what: string, check: () => void): void {
  try {
    check();
  } catch (error) {
    throw new Error(`SDK contract broken with ${SDK}: ${what}.\nFix: update lib/server/error-mapping.ts for this SDK, then this spec.\n\n${(error as Error).message}`);
  }
}

/** Accepts any result: the requests below are about the error the server throws. */
const ANY_RESULT: StandardSchemaV1 = { '~standard': { version: 1, vendor: 'spec', validate: (value: unknown) => ({ value }) } };

/** A low-level SDK server that records what each handler (the SDK's params check included) threw. */
class RecordingServer extends Server {
  readonly thrown: unknown[] = [];
  reached = 0;

  protected override _wrapHandler(method: string, handler: Parameters<Server['_wrapHandler']>[1]): Parameters<Server['_wrapHandler']>[1] {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        this.thrown.push(error);
        throw error;
      }
    };
  }
}

async function serve(): Promise<{ server: RecordingServer; client: Client; close: () => Promise<void> }> {
  const server = new RecordingServer({ name: 'contract', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler('tools/call', () => {
    server.reached++;
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: nope');
  });
  server.setRequestHandler('resources/read', () => {
    server.reached++;
    return { contents: [] };
  });
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  const client = new Client({ name: 'contract-spec', version: '1.0.0' });
  await client.connect(clientEnd);
  return { server, client, close: () => client.close() };
}

async function thrownFor(method: string, params: unknown): Promise<{ thrown: unknown; reached: number }> {
  const { server, client, close } = await serve();
  try {
    await client.request({ method, params } as never, ANY_RESULT).catch(() => undefined);
    return { thrown: server.thrown[0], reached: server.reached };
  } finally {
    await close();
  }
}

describe(`the SDK's params errors (${SDK})`, () => {
  it('refuses the params of tools/call with a ProtocolError -32602, before the handler runs', async () => {
    const { thrown, reached } = await thrownFor('tools/call', { name: 5 });
    contract('tools/call params refused by the schema are a ProtocolError with code InvalidParams (-32602)', () => {
      expect(reached).toBe(0);
      expect(thrown).toBeInstanceOf(ProtocolError);
      expect((thrown as ProtocolError).code).toBe(ProtocolErrorCode.InvalidParams);
    });
  });

  it('refuses the params of the other methods with an Error that is no ProtocolError, before the handler runs', async () => {
    const { thrown, reached } = await thrownFor('resources/read', { uri: 5 });
    contract('params of other methods refused by the schema are a plain Error (not a ProtocolError with another code)', () => {
      expect(reached).toBe(0);
      expect(thrown).toBeInstanceOf(Error);
      expect(thrown).not.toBeInstanceOf(ProtocolError);
    });
  });

  it("passes a handler's own ProtocolError on unchanged (valid params reach the handler)", async () => {
    const { thrown, reached } = await thrownFor('tools/call', { name: 'nope' });
    contract("a handler's ProtocolError reaches the wrapper as thrown", () => {
      expect(reached).toBe(1);
      expect(thrown).toBeInstanceOf(ProtocolError);
      expect((thrown as ProtocolError).message).toBe('Unknown tool: nope');
    });
  });
});

/** The issues `specTypeSchemas` reports for `params` of `method` (what error-mapping.ts describes). */
function issuesOf(name: SpecTypeName, method: string, params: unknown): readonly unknown[] {
  const outcome = specTypeSchemas[name]['~standard'].validate({ method, params }) as StandardSchemaV1.Result<unknown>;
  if (outcome instanceof Promise) throw new Error(`${name} validated asynchronously`);
  return outcome.issues ?? [];
}

describe(`the issues of the SDK's specTypeSchemas (${SDK})`, () => {
  it('reports a wrong or missing field as invalid_type with what it expected, at a path from the message root', () => {
    contract("invalid_type issues carry `expected` and a path starting at 'params'", () => {
      expect(issuesOf('ReadResourceRequest', 'resources/read', { uri: 5 })).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'string', path: ['params', 'uri'] })]);
      // Missing is the same code: the library tells it apart by the value at the path, not by the message.
      expect(issuesOf('ReadResourceRequest', 'resources/read', {})).toEqual([expect.objectContaining({ code: 'invalid_type', expected: 'string', path: ['params', 'uri'] })]);
    });
  });

  it('reports a value outside an enum as invalid_value with the accepted values', () => {
    contract('invalid_value issues carry `values`', () => {
      expect(issuesOf('SetLevelRequest', 'logging/setLevel', { level: 'loud' })).toEqual([
        expect.objectContaining({ code: 'invalid_value', path: ['params', 'level'], values: ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] }),
      ]);
    });
  });

  it("reports a union's failure as invalid_union with one issue list per alternative, paths relative to the union", () => {
    contract('invalid_union issues carry `errors`, one list per alternative, paths relative to the union', () => {
      expect(issuesOf('CompleteRequest', 'completion/complete', { ref: { type: 'ref/other' }, argument: { name: 'a', value: 'b' } })).toEqual([
        expect.objectContaining({
          code: 'invalid_union',
          path: ['params', 'ref'],
          errors: [
            [expect.objectContaining({ code: 'invalid_value', path: ['type'], values: ['ref/prompt'] }), expect.objectContaining({ code: 'invalid_type', path: ['name'] })],
            [expect.objectContaining({ code: 'invalid_value', path: ['type'], values: ['ref/resource'] }), expect.objectContaining({ code: 'invalid_type', path: ['uri'] })],
          ],
        }),
      ]);
    });
  });
});

/**
 * Why mcp-reflect holds a stdio answer back after progress (lib/transports/progress-first.ts, `progressGapMs`):
 * the official client drops progress that arrives in the same read as the answer to its request
 * (modelcontextprotocol/typescript-sdk#2580). A bare SDK server writes the two in one write; this spec asserts
 * the client still drops it. When an SDK upgrade delivers it, the spec fails saying the workaround can go.
 */
describe(`progress read with the answer, on the official client (${sdkVersion('client')})`, () => {
  const root = path.resolve(__dirname, '..', '..');

  it('drops the progress and reports an unknown token (the reason for progressGapMs)', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['-r', path.join(root, 'spec', 'support', 'register.js'), path.join(root, 'spec', 'fixtures', 'progress-with-answer.ts')],
      cwd: root,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'progress-contract', version: '1.0.0' });
    const errors: string[] = [];
    client.onerror = (error) => void errors.push(error.message);
    await client.connect(transport);
    try {
      const seen: number[] = [];
      const result = await client.callTool({ name: 'step', arguments: {} }, { onprogress: (p) => void seen.push(p.progress) });
      expect(result.content).toEqual([{ type: 'text', text: 'stepped' }]);
      await new Promise((resolve) => setImmediate(resolve)); // any late notification handler has run
      if (seen.length > 0) {
        throw new Error(
          `${sdkVersion('client')} now delivers progress that arrives with the answer (modelcontextprotocol/typescript-sdk#2580 is fixed): ` +
            `the workaround is no longer needed.\nFix: remove lib/transports/progress-first.ts and \`progressGapMs\` (docs/context.md), then this spec.`,
        );
      }
      expect(errors).toEqual([expect.stringMatching(/^Received a progress notification for an unknown token/)]);
    } finally {
      await client.close();
    }
  });
});
