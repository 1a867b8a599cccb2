import 'reflect-metadata';
import { Param } from 'mcp-reflect';
import { compileMethod, methodInvoker, type Invoker, type RequestHandle } from '../../lib/invocation';
import { GeneratedTypes } from '../../lib/metadata';
import { NO_ENHANCERS, Pipeline, type MethodEnhancers } from '../../lib/pipeline';
import { SchemaCompiler } from '../../lib/validation';

/**
 * The seam of issue 23: a pipeline runs an invoker, whatever it is; a class method is one kind. What comes
 * before the invoker (validation, binding, guards) is the pipeline's, and a request handle reaches the invoker
 * untouched, as the host that opened it made it.
 */
class Calculator {
  add(@Param('a') a: number, @Param('b') b: number): number {
    return a + b;
  }
}

const compiler = new SchemaCompiler(false);
const answer = (enhancers: MethodEnhancers, invoker: Invoker, scopes = () => ({ run: <T>(fn: () => T) => fn() }) as RequestHandle) => {
  const compiled = { ...compileMethod({ target: Calculator, instance: new Calculator(), types: GeneratedTypes.none }, 'add', 'tool add', compiler), invoker };
  return new Pipeline<unknown, undefined>({
    compiled,
    enhancers,
    component: { kind: 'tool', name: 'add', method: 'tools/call' },
    scopes,
    convert: (value) => ({ value }),
    invalid: (issues) => ({ invalid: issues }),
    fail: (error) => ({ failed: String(error) }),
    denied: () => ({ denied: true }),
  });
};

describe('the pipeline runs any invoker', () => {
  it('runs a class method through methodInvoker, synchronously for a singleton', () => {
    const pipeline = answer(NO_ENHANCERS, methodInvoker(Calculator, 'add', new Calculator(), undefined));
    expect(pipeline.call({ a: 2, b: 3 }, undefined, undefined)).toEqual({ value: 5 });
  });

  it('runs another kind of invoker with the same validation and binding before it', async () => {
    const calls: unknown[][] = [];
    const remote: Invoker = { target: Calculator, handler: Calculator.prototype.add, perRequest: false, invoke: (values) => (calls.push(values), Promise.resolve(`remote ${values.join('+')}`)) };
    const pipeline = answer(NO_ENHANCERS, remote);
    expect(await pipeline.call({ a: 2, b: 3 }, undefined, undefined)).toEqual({ value: 'remote 2+3' });
    expect(await pipeline.call({ a: 'x', b: 3 }, undefined, undefined)).toEqual({ invalid: [expect.stringContaining('a')] });
    expect(calls).toEqual([[2, 3]]);
  });

  it('hands a per-request invoker the handle its host opened, untouched', async () => {
    const opened: RequestHandle[] = [];
    const seen: (RequestHandle | undefined)[] = [];
    const scopes = () => {
      const handle: RequestHandle = { run: (fn) => fn() };
      opened.push(handle);
      return handle;
    };
    const perRequest: Invoker = { target: Calculator, handler: Calculator.prototype.add, perRequest: true, invoke: (values, request) => (seen.push(request), Number(values[0]) * 10) };
    const channel = { signal: new AbortController().signal } as never;
    const pipeline = answer(NO_ENHANCERS, perRequest, scopes);
    expect(await pipeline.call({ a: 4, b: 0 }, () => channel, undefined)).toEqual({ value: 40 });
    expect(seen).toEqual(opened);
    expect(opened).toHaveLength(1);
  });
});
