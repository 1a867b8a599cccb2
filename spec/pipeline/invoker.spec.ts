import 'reflect-metadata';
import { Param } from 'mcp-reflect';
import { compileMethod, methodInvoker, type Invoker, type RequestHandle } from '../../lib/invocation';
import { GeneratedTypes } from '../../lib/metadata';
import { EnhancerChain } from '../../lib/host/native/enhancer-chain';
import { NO_ENHANCERS, Pipeline, type ComponentEnhancers } from '../../lib/pipeline';
import type { CanActivate, ExceptionFilter, McpInterceptor, PipeTransform } from '../../lib/interfaces';
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
const answer = (enhancers: ComponentEnhancers, invoker: Invoker, scopes = () => ({ run: <T>(fn: () => T) => fn() }) as RequestHandle) => {
  const compiled = { ...compileMethod({ target: Calculator, instance: new Calculator(), types: GeneratedTypes.none }, 'add', 'tool add', compiler), invoker };
  return new Pipeline<unknown, undefined>({
    compiled,
    enhancers,
    component: { kind: 'tool', name: 'add', method: 'tools/call' },
    openScope: scopes,
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

describe('the pipeline asks enhancers through one interface', () => {
  /** Enhancers a host supplies itself (not the standalone chain): each records what it was asked, and with which handle. */
  class HostEnhancers implements ComponentEnhancers {
    readonly guards = true;
    readonly interceptors = true;
    readonly filters = true;
    readonly pipes = true;
    readonly requestScoped = true;
    readonly asked: string[] = [];
    constructor(private readonly allow: (args: Record<string, unknown>) => boolean) {}
    async canActivate(execution: import('../../lib/interfaces').ExecutionContext, request: RequestHandle | undefined) {
      this.asked.push(`guard ${(execution as { phase: string }).phase} ${String((request as { id?: number })?.id)}`);
      return this.allow(execution.switchToRpc().getData<Record<string, unknown>>() ?? {});
    }
    async intercept(_: unknown, request: RequestHandle | undefined, next: () => Promise<unknown>) {
      this.asked.push(`intercept ${String((request as { id?: number })?.id)}`);
      return `wrapped(${String(await next())})`;
    }
    hasPipes(index: number) {
      return index === 1;
    }
    async transform(index: number, value: unknown) {
      this.asked.push(`pipe #${index}`);
      return Number(value) * 100;
    }
    async recover(error: unknown) {
      this.asked.push('filter');
      return error instanceof RangeError ? { value: 'recovered' } : undefined;
    }
    withoutGuards(): ComponentEnhancers {
      return Object.assign(Object.create(this), { guards: false });
    }
  }

  let opened = 0;
  const scopes = () => ({ id: ++opened, run: <T>(fn: () => T) => fn() }) as RequestHandle;
  const channel = () => ({ signal: new AbortController().signal }) as never;

  it('runs the guards, interceptors and pipes the host supplies, each with the handle the host opened', async () => {
    const enhancers = new HostEnhancers(() => true);
    opened = 0;
    const pipeline = answer(enhancers, methodInvoker(Calculator, 'add', new Calculator(), undefined), scopes);
    expect(await pipeline.call({ a: 2, b: 3 }, channel, undefined)).toEqual({ value: 'wrapped(302)' });
    expect(enhancers.asked).toEqual(['guard call 1', 'intercept 1', 'pipe #1']);
  });

  it("answers a denial as the kind's unknown answer, and asks the guards of a list entry with phase 'list'", async () => {
    const enhancers = new HostEnhancers((args) => args.a !== 13);
    const pipeline = answer(enhancers, methodInvoker(Calculator, 'add', new Calculator(), undefined), scopes);
    expect(await pipeline.call({ a: 13, b: 1 }, channel, undefined)).toEqual({ denied: true });
    expect(pipeline.guarded).toBe(true);
    // A call its guards already let through (a task's run) is not asked again: the same arguments now run.
    enhancers.asked.length = 0;
    expect(await pipeline.admitted().call({ a: 13, b: 1 }, channel, undefined)).toEqual({ value: 'wrapped(113)' });
    expect(enhancers.asked).toEqual([expect.stringMatching(/^intercept /), 'pipe #1']);
  });

  it('lets the host\'s filter answer what the method threw, and fails the call when no filter handles it', async () => {
    const enhancers = new HostEnhancers(() => true);
    const throwing = (error: Error): Invoker => ({ target: Calculator, handler: Calculator.prototype.add, perRequest: false, invoke: () => { throw error; } });
    expect(await answer(enhancers, throwing(new RangeError('out')), scopes).call({ a: 1, b: 1 }, channel, undefined)).toEqual({ value: 'recovered' });
    expect(await answer(enhancers, throwing(new TypeError('bad')), scopes).call({ a: 1, b: 1 }, channel, undefined)).toEqual({ failed: 'TypeError: bad' });
  });
});

describe('the order in which the standalone host\'s enhancers run (EnhancerChain)', () => {
  /** Real guards, interceptors, pipes and filters of the standalone host, each writing what it did here. */
  const trail: string[] = [];
  const guard = (allow: boolean): CanActivate => ({ canActivate: () => (trail.push('guard'), allow) });
  const interceptor = (name: string): McpInterceptor => ({
    async intercept(_context, next) {
      trail.push(`before ${name}`);
      try {
        return `${name}(${String(await next.handle())})`;
      } finally {
        trail.push(`after ${name}`);
      }
    },
  });
  const pipe: PipeTransform = { transform: (value, metadata) => (trail.push(`pipe ${String(metadata.data)}=${JSON.stringify(value)}`), Number(value) + 1) };
  const filter: ExceptionFilter = { catch: (error) => (trail.push(`filter ${(error as Error).message}`), 'recovered') };
  const invoker = (fail?: Error): Invoker => ({
    target: Calculator,
    handler: Calculator.prototype.add,
    perRequest: false,
    invoke: ([a, b]) => {
      trail.push(`method ${String(a)}+${String(b)}`);
      if (fail) throw fail;
      return Number(a) + Number(b);
    },
  });
  const run = (args: Record<string, unknown>, options: { allow?: boolean; fail?: Error } = {}) => {
    trail.length = 0;
    const chain = new EnhancerChain({
      guards: [{ name: 'Guard', instance: guard(options.allow ?? true) }],
      interceptors: [{ name: 'Outer', instance: interceptor('outer') }, { name: 'Inner', instance: interceptor('inner') }],
      pipes: [{ name: 'PlusOne', instance: pipe }],
      parameterPipes: new Map(),
      filters: [{ filter: { name: 'RangeFilter', instance: filter }, catches: [RangeError] }],
    });
    const compiled = { ...compileMethod({ target: Calculator, instance: new Calculator(), types: GeneratedTypes.none }, 'add', 'tool add', compiler), invoker: invoker(options.fail) };
    return new Pipeline<unknown, undefined>({
      compiled,
      enhancers: chain,
      component: { kind: 'tool', name: 'add', method: 'tools/call' },
      openScope: () => ({ run: <T>(fn: () => T) => fn() }) as RequestHandle,
      convert: (value) => (trail.push(`convert ${String(value)}`), { value }),
      invalid: (issues) => (trail.push('invalid'), { invalid: issues }),
      fail: (error) => (trail.push('fail'), { failed: String(error) }),
      denied: () => (trail.push('denied'), { denied: true }),
    }).call(args, () => ({ signal: new AbortController().signal }) as never, undefined);
  };

  it('guards, then the interceptors (outermost first) around validation, the pipes and the method, then conversion', async () => {
    expect(await run({ a: 2, b: 3 })).toEqual({ value: 'outer(inner(7))' });
    expect(trail).toEqual(['guard', 'before outer', 'before inner', 'pipe a=2', 'pipe b=3', 'method 3+4', 'after inner', 'after outer', 'convert outer(inner(7))']);
  });

  it('validates inside the interceptors and before the pipes: invalid arguments reach neither a pipe nor the method', async () => {
    expect(await run({ a: 'x', b: 3 })).toEqual({ invalid: [expect.stringContaining('a')] });
    expect(trail).toEqual(['guard', 'before outer', 'before inner', 'after inner', 'after outer', 'invalid']);
  });

  it('asks the filters around everything: what the method threw has passed back through the interceptors', async () => {
    expect(await run({ a: 2, b: 3 }, { fail: new RangeError('too far') })).toEqual({ value: 'recovered' });
    expect(trail).toEqual(['guard', 'before outer', 'before inner', 'pipe a=2', 'pipe b=3', 'method 3+4', 'after inner', 'after outer', 'filter too far', 'convert recovered']);
    // An error no filter catches is the call's failure.
    expect(await run({ a: 2, b: 3 }, { fail: new TypeError('bad') })).toEqual({ failed: 'TypeError: bad' });
    expect(trail.slice(-3)).toEqual(['after inner', 'after outer', 'fail']);
  });

  it('stops at a guard that says no: nothing else runs, and the denial is not a filter\'s to answer', async () => {
    expect(await run({ a: 2, b: 3 }, { allow: false })).toEqual({ denied: true });
    expect(trail).toEqual(['guard', 'denied']);
  });
});
