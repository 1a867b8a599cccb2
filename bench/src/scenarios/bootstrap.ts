import { reflectVersions } from '../baseline';
import type { BenchSystem } from '../system';
import { writePrecompiled } from '../precompiled';
import { alternate } from '../stats';
import { startWorkers } from '../workers';
import type { Settings } from './in-memory';

const PRECOMPILED = 'validators precompiled (mcp-reflect validators)';
const ON_FIRST_USE = "validators compiled on first use (compileValidators: 'onFirstUse')";

/** (f) bootstrap time with 10, 100 and 1,000 tools (ms, lower is better), each system in its own process. */
export async function bootstrapTimes(systems: readonly BenchSystem[], settings: Settings) {
  const withBootstrap = systems.filter((s) => s.bootstrap);
  const workers = await startWorkers(withBootstrap.map((s) => s.name));
  try {
    const results: Record<string, Record<string, number>> = {};
    for (const tools of [10, 100, 1000]) {
      const medians = await alternate(withBootstrap, settings.reps, (system) => workers.get(system.name)!.run({ op: 'bootstrap', tools }));
      results[`bootstrap, ${tools} tools (ms)`] = Object.fromEntries(medians);
    }
    // mcp-reflect given the validators `mcp-reflect validators` wrote: it compiles none (docs/cli.md).
    const reflect = withBootstrap.find((s) => s.name === 'mcp-reflect');
    if (reflect) {
      writePrecompiled();
      const variants = [reflect, { ...reflect, name: PRECOMPILED }];
      const medians = await alternate(variants, settings.reps, (system) =>
        workers.get('mcp-reflect')!.run({ op: 'bootstrap', tools: 1000, ...(system.name === PRECOMPILED ? { precompiled: true } : {}) }),
      );
      const zod = results['bootstrap, 1000 tools (ms)']['McpServer+zod'];
      results['mcp-reflect bootstrap, 1000 tools (ms)'] = {
        ...(zod !== undefined ? { 'McpServer+zod': zod } : {}),
        'validators compiled at start': medians.get('mcp-reflect')!,
        [PRECOMPILED]: medians.get(PRECOMPILED)!,
      };
      // The same bootstraps with every validator compiled by its first call instead (docs/validation.md).
      const nest = results['bootstrap, 10 tools (ms)']['mcp-nest'] !== undefined;
      const deferred: Record<string, number> = {};
      for (const tools of [10, 100, 1000]) {
        const lazy = { ...reflect, name: ON_FIRST_USE };
        const pair = await alternate([reflect, lazy], settings.reps, (system) =>
          workers.get('mcp-reflect')!.run({ op: 'bootstrap', tools, ...(system.name === ON_FIRST_USE ? { onFirstUse: true } : {}) }),
        );
        deferred[`${tools} tools, at start`] = pair.get('mcp-reflect')!;
        deferred[`${tools} tools, on first use`] = pair.get(ON_FIRST_USE)!;
        if (nest) deferred[`${tools} tools, mcp-nest`] = results[`bootstrap, ${tools} tools (ms)`]['mcp-nest'];
      }
      results["mcp-reflect bootstrap by when validators are compiled (ms)"] = deferred;
    }
    return results;
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
}

/**
 * (f) variants of `add` in memory through the client, µs per call: a singleton, a request-scoped class, and
 * a singleton with one guard and one interceptor (the pipeline's cost over the plain path); for mcp-reflect
 * and a baseline (`mcp-reflect@<rev>`) when one is measured, every variant of both in one alternation.
 */
export async function requestScope(systems: readonly BenchSystem[], settings: Settings) {
  const versions = reflectVersions(systems);
  const workers = await startWorkers(versions);
  try {
    const variants = versions.flatMap((system) => [
      { system, label: 'singleton', tool: 'add' },
      { system, label: 'request-scoped', tool: 'addScoped' },
      { system, label: 'one guard + one interceptor', tool: 'addEnhanced' },
    ].map((v) => ({ ...v, name: `${v.system} ${v.label}` })));
    const medians = await alternate(variants, settings.reps, ({ system, tool }) => workers.get(system)!.run({ op: 'scoped', tool, calls: settings.calls }));
    return Object.fromEntries(
      versions.map((system) => [
        `${system} add variants, µs per call (in memory)`,
        Object.fromEntries(variants.filter((v) => v.system === system).map((v) => [v.label, medians.get(v.name)!])),
      ]),
    );
  } finally {
    await Promise.all([...workers.values()].map((w) => w.stop()));
  }
}
