import type { BenchSystem } from '../system';
import type { Job } from '../worker';
import { measureInProcessGroups } from '../workers';
import type { Settings } from './in-memory';

/** (b) tools/list with 50 and 500 tools: lists per second (sequential), each server warmed when it is made. */
export async function toolsList(systems: readonly BenchSystem[], settings: Settings) {
  const cells: Record<string, Job> = {};
  for (const total of [50, 500]) {
    // `lists` is in practice bounded by maxMs: every system lists for the same time.
    cells[`tools/list, ${total} tools`] = { op: 'list', total, lists: settings.calls, maxMs: settings.maxMs };
  }
  return measureInProcessGroups(systems, settings.groups, settings.rounds, cells);
}
