/**
 * DI costs (issue: DI container): what a request-scoped tool class adds per call compared with a singleton,
 * and how long bootstrap takes for 200 providers in 20 modules. Alternating A/B runs, medians of 5 reps.
 *
 *   npm run bench:di            full run
 *   npm run bench:di -- --quick a short smoke run (CI)
 */
import 'reflect-metadata';
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Injectable, McpFactory, McpModule, Module, Param, Scope, Tool, type Provider } from '../lib';
import { buildApplication } from '../lib/host/mcp-factory';
import type { RequestChannel } from '../lib/context';

const quick = process.argv.includes('--quick');
const REPS = quick ? 2 : 5;
const CALLS = quick ? 2_000 : 200_000;

@Injectable()
class Dependency {
  value = 1;
}

@Injectable()
class SingletonTools {
  constructor(private readonly dep: Dependency) {}
  @Tool() add(@Param() a: number, @Param() b: number): number {
    return a + b + this.dep.value - 1;
  }
}

@Injectable({ scope: Scope.REQUEST })
class RequestTools {
  constructor(private readonly dep: Dependency) {}
  @Tool() addScoped(@Param() a: number, @Param() b: number): number {
    return a + b + this.dep.value - 1;
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'bench', version: '1.0.0' })],
  providers: [Dependency, SingletonTools, RequestTools],
})
class BenchModule {}

const channel: RequestChannel = {
  signal: new AbortController().signal,
  requestId: 1,
  sessionId: undefined,
  progressToken: undefined,
  notify: async () => {},
  log: async () => {},
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function perCall(): Promise<{ singletonUs: number; requestUs: number; addedUs: number }> {
  // The compiled pipelines, from the one who builds the application (no public API hands them out).
  const { app, registries } = await buildApplication(BenchModule);
  const singleton = registries.tools.get('add')!;
  const scoped = registries.tools.get('addScoped')!;
  const run = async (tool: typeof singleton): Promise<number> => {
    const start = performance.now();
    for (let i = 0; i < CALLS; i++) await tool.pipeline.call({ a: i, b: 1 }, () => channel, undefined);
    return ((performance.now() - start) * 1000) / CALLS;
  };
  await run(singleton);
  await run(scoped); // warm-up
  const a: number[] = [];
  const b: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    a.push(await run(singleton));
    b.push(await run(scoped));
  }
  await app.close();
  const singletonUs = median(a);
  const requestUs = median(b);
  return { singletonUs, requestUs, addedUs: requestUs - singletonUs };
}

/** 20 modules of 10 providers; each provider depends on the previous one, each module imports the previous. */
function largeGraph(): Function {
  let previous: { module: Function; last: Function } | undefined;
  for (let m = 0; m < 20; m++) {
    const providers: Provider[] = [];
    let before: Function | undefined = previous?.last;
    for (let p = 0; p < 10; p++) {
      const cls = class {
        constructor(readonly dep?: unknown) {}
      };
      Object.defineProperty(cls, 'name', { value: `Service${m}_${p}` });
      Injectable()(cls);
      Reflect.defineMetadata('design:paramtypes', before ? [before] : [], cls);
      providers.push(cls);
      before = cls;
    }
    const module = class {};
    Object.defineProperty(module, 'name', { value: `Feature${m}Module` });
    Module({ imports: previous ? [previous.module] : [], providers, exports: [before!] })(module);
    previous = { module, last: before! };
  }
  const root = class {};
  Object.defineProperty(root, 'name', { value: 'LargeAppModule' });
  Module({ imports: [McpModule.forRoot({ name: 'large', version: '1.0.0' }), previous!.module] })(root);
  return root;
}

async function bootstrap(): Promise<{ providers: number; modules: number; medianMs: number }> {
  const times: number[] = [];
  for (let rep = 0; rep < REPS; rep++) {
    const root = largeGraph();
    const start = performance.now();
    const app = await McpFactory.create(root);
    times.push(performance.now() - start);
    await app.close();
  }
  return { providers: 200, modules: 20, medianMs: median(times) };
}

async function main(): Promise<void> {
  const calls = await perCall();
  const boot = await bootstrap();
  const result = { date: new Date().toISOString(), node: process.version, quick, calls: CALLS, reps: REPS, perCall: calls, bootstrap: boot };
  console.log('DI per call (pipeline path, no transport):');
  console.log(`  singleton tool       ${calls.singletonUs.toFixed(3)} µs/call`);
  console.log(`  request-scoped tool  ${calls.requestUs.toFixed(3)} µs/call`);
  console.log(`  added by REQUEST     ${calls.addedUs.toFixed(3)} µs/call (target ≤ 2 µs)`);
  console.log(`Bootstrap, ${boot.providers} providers in ${boot.modules} modules: ${boot.medianMs.toFixed(1)} ms (median)`);
  if (!quick) {
    const dir = path.join(__dirname, 'results');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'di.json'), JSON.stringify(result, null, 2) + '\n');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
