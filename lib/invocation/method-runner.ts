import { Context, type RequestChannel } from '../context';
import { classValidatorIssues } from '../validation';
import type { CompiledMethod } from './method-compiler';

export type MethodOutcome =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly issues: readonly string[] };

/**
 * The per-call path shared by tools, resource templates and prompts: validate (compiled), bind, resolve the
 * instance (the singleton, or this request's), invoke. Invalid arguments come back as issues; whatever the
 * method throws propagates, for the caller to map to its own kind of error.
 */
export async function runMethod(
  compiled: CompiledMethod,
  rawArgs: unknown,
  channel: RequestChannel | undefined, // needed when the method takes a Context (or its class is request-scoped)
  context?: Context,
): Promise<MethodOutcome> {
  const validation = compiled.validator.validate(rawArgs);
  if (!validation.ok) return validation;
  const ctx = context ?? (compiled.needsContext ? new Context(channel!) : undefined);
  const args = compiled.bind(validation.value, ctx);
  if (compiled.runtimeChecked.length > 0) {
    const issues: string[] = [];
    for (const index of compiled.runtimeChecked) {
      const value = args[index];
      if (typeof value === 'object' && value !== null) issues.push(...(await classValidatorIssues(value)));
    }
    if (issues.length > 0) return { ok: false, issues };
  }
  if (!compiled.scoped) return { ok: true, value: await compiled.method.apply(compiled.instance, args) };
  // A request-scoped class: this request's instance, and the call runs inside the request scope.
  const request = compiled.scoped(ctx!);
  const instance = await request.instance;
  return { ok: true, value: await request.run(() => compiled.method.apply(instance, args)) };
}
