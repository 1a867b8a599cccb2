import { McpReflectError } from 'mcp-reflect';
import { loadDependency, loadPeer } from '../../lib/runtime/peer';

/**
 * The one loader of optional and ESM-only peers, under jest without a transform for them (jest.config.js
 * compiles jose and the auth server's packages only): jest's registry refuses an ES module, Node's own require
 * (Node ≥ 20.19) loads it.
 */
describe('loadPeer', () => {
  it('loads an ESM-only peer that jest refuses (the $ref parser), through the host process', () => {
    expect(() => require('@apidevtools/json-schema-ref-parser')).toThrow(/ES Module|import statement|export/);
    const parser = loadPeer<typeof import('@apidevtools/json-schema-ref-parser')>('@apidevtools/json-schema-ref-parser', { feature: 'McpModule.fromOpenApi()' });
    expect(typeof parser.$RefParser).toBe('function');
  });

  it('loads a CommonJS peer through the module system that loaded mcp-reflect (jest\'s own here)', () => {
    const bullmq = loadPeer<{ Queue: unknown }>('bullmq', { feature: 'RedisTaskQueue' });
    expect(bullmq).toBe(require('bullmq'));
  });

  it('names the package, the feature and the install when a peer is missing', () => {
    let error: unknown;
    try {
      loadPeer('mcp-reflect-no-such-peer', { feature: 'the feature under test', install: 'npm install mcp-reflect-no-such-peer@1' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpReflectError);
    expect(error).toMatchObject({
      code: 'OPTIONAL_DEPENDENCY_MISSING',
      message:
        "Cannot load 'mcp-reflect-no-such-peer', which the feature under test needs: it is not installed (an optional peer dependency of mcp-reflect, installed by the applications that use the feature).\n" +
        'Fix: npm install mcp-reflect-no-such-peer@1',
    });
  });

  it('passes on any other failure of the package as it is (not taken for a missing peer)', () => {
    const broken = () => {
      throw Object.assign(new Error("Cannot find module 'its-own-dependency'"), { code: 'MODULE_NOT_FOUND' });
    };
    expect(() => loadDependency('some-dependency', { feature: 'x' }, broken)).toThrow("Cannot find module 'its-own-dependency'");
  });
});
