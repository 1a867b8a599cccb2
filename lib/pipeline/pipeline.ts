import { Context, InputRequiredSignal, missingScopes, type RequestChannel } from '../context';
import { InsufficientScopeError, InvalidArgumentsError, TimeoutError, ToolError } from '../errors';
import type { ArgumentMetadata, McpAuth, McpComponentKind, McpMethod } from '../interfaces';
import { capitalize } from '../errors/describe';
import type { CompiledMethod, RequestHandle, RequestScopeOpener } from '../invocation';
import { classValidatorIssues, type ValidationOutcome } from '../validation';
import { isPlain, type ComponentEnhancers } from './enhancers';
import { DeadlineChannel } from './deadline-channel';
import { ExecutionContextHost, type ComponentInfo } from './execution-context';

/** How one kind of component answers: conversion of the method's value, and its kinds of failure. */
export interface PipelineSpec<R, X> {
  readonly compiled: CompiledMethod;
  /** What the host's enhancers add (guards, interceptors, pipes, filters, `@Scopes()`): the pipeline asks them only. */
  readonly enhancers: ComponentEnhancers;
  readonly component: Omit<ComponentInfo, 'target' | 'handler'>;
  readonly openScope: RequestScopeOpener;
  /** 'hide' (default): a denied call is answered as an unknown component; 'refuse': with an access-denied error. */
  readonly guardDenial?: 'hide' | 'refuse';
  /** Milliseconds a call may take; at the deadline the Context's signal aborts and the caller is answered. */
  readonly timeout?: number;
  /** The server-wide deadline of calls without their own (`McpModule.forRoot({ callTimeout })`; 0: none). */
  readonly callTimeout?: number;
  /** Where a guard that throws during a list is reported. */
  readonly logger?: { warn(message: string): void };
  /** The method's (or a filter's) value as this kind's answer; may throw, then `fail` answers. */
  convert(value: unknown, extra: X): R;
  /** Invalid arguments (validation or a pipe): a result (tools) or a thrown JSON-RPC error. */
  invalid(issues: readonly string[], extra: X): R;
  /** Anything else that was thrown: a result (tools) or a thrown JSON-RPC error. */
  fail(error: unknown, extra: X): R;
  /** A guard said no: answered as if the component did not exist (throws). */
  denied(extra: X): R;
}

/**
 * One component method's call path, decided once at bootstrap: scopes → guards → interceptors around
 * (validation → class-validator rules → pipes → the method) → conversion, with exception filters around it; the
 * steps the method has nothing for are left out. A method with just validation, the method and conversion (no
 * enhancer, no Context, no timeout, no class-validator rule, a singleton) runs on a synchronous path that
 * allocates nothing of its own.
 */
export class Pipeline<R, X = undefined> {
  /** The caller must give a channel opener (the Context, the signal, or an ExecutionContext need it). */
  readonly needsChannel: boolean;
  /** Some guard (or a scope) decides per caller: lists must ask it. */
  readonly guarded: boolean;
  /** The scopes a caller's token must grant (`@Scopes()`), or undefined. */
  readonly requiredScopes?: readonly string[];
  private readonly info: ComponentInfo;
  private readonly direct: boolean;
  private readonly needsContext: boolean;
  private readonly requestScoped: boolean;
  /** The deadline of a call: the method's own (`@Tool({ timeout })`), else the server-wide `callTimeout`. */
  private readonly timeout: number | undefined;
  private warnedSwallowed = false;
  private unguarded?: Pipeline<R, X>;
  /** The parameters whose values go through the enhancers' pipes, with what a pipe is told of each. */
  private readonly slotPipes: readonly (readonly [number, ArgumentMetadata])[];

  constructor(private readonly spec: PipelineSpec<R, X>) {
    const { compiled, enhancers } = spec;
    this.info = { ...spec.component, target: compiled.invoker.target, handler: compiled.invoker.handler };
    const plain = isPlain(enhancers);
    this.slotPipes = plain || !enhancers.pipes ? [] : compiled.parameters.flatMap((p) => {
      if (p.kind === 'ctx' || !enhancers.hasPipes(p.index)) return [];
      const metatype = typeof p.reflected === 'function' ? p.reflected : undefined;
      const data = p.kind === 'param' ? p.name : p.kind === 'custom' ? p.data : undefined;
      return [[p.index, { type: p.kind, metatype, data, index: p.index }] as const];
    });
    this.requiredScopes = enhancers.requiredScopes;
    this.guarded = enhancers.guards || this.requiredScopes !== undefined;
    this.requestScoped = compiled.invoker.perRequest || enhancers.requestScoped;
    // Enhancers and custom parameters read an ExecutionContext, hence a Context; class-validator rules do not.
    const enhanced =
      this.guarded || enhancers.interceptors || this.slotPipes.length > 0 || enhancers.filters || compiled.hasCustomParameters;
    this.needsContext = compiled.needsContext || enhanced || this.requestScoped;
    // A method's own timeout aborts its signal, so it needs the channel; the server-wide one only answers in time.
    this.needsChannel = this.needsContext || spec.timeout !== undefined;
    this.timeout = spec.timeout ?? (spec.callTimeout !== undefined && spec.callTimeout > 0 ? spec.callTimeout : undefined);
    // Without a channel there is no enhancer step (each needs a Context); class-validator rules are awaited.
    this.direct = !this.needsChannel && compiled.runtimeChecked.length === 0;
  }

  /**
   * Runs one call. `open` gives the request's channel; pass it when `needsChannel`. The answer is a promise
   * only when something on the way is asynchronous.
   */
  call(args: unknown, open: (() => RequestChannel) | undefined, extra: X): R | Promise<R> {
    if (!this.direct) return this.general(args, open, extra);
    const { compiled } = this.spec;
    // A mapper on this path fills hidden arguments with values only (one of the Context makes the call general).
    const input = compiled.mapArguments ? (compiled.mapArguments.map((args ?? {}) as Record<string, unknown>, undefined) as Record<string, unknown>) : args;
    const accepted = compiled.validator.accept(input);
    if (accepted === undefined) return this.general(args, open, extra); // to coerce, or to name the issues
    let value: unknown;
    try {
      value = compiled.invoker.invoke(compiled.bind(accepted, undefined), undefined);
    } catch (error) {
      return this.failed(error, extra);
    }
    if (isPromiseLike(value)) {
      const settled = Promise.resolve(value).then(
        (resolved) => this.converted(resolved, extra),
        (error: unknown) => this.failed(error, extra),
      );
      // Only an asynchronous method can outlive its caller: the server-wide deadline applies to it.
      return this.timeout === undefined ? settled : this.withDeadline(settled, this.timeout, extra);
    }
    return this.converted(value, extra);
  }

  /**
   * Whether the caller may see this component in a list: every guard is asked, with `phase: 'list'`. A guard
   * that throws hides the component too.
   */
  async allows(context: Context, request: RequestHandle | undefined, listMethod: McpMethod): Promise<boolean> {
    if (this.requiredScopes && missingScopes(context.auth, this.requiredScopes).length > 0) return false;
    const execution = new ExecutionContextHost(this.info, 'list', undefined, context, listMethod);
    try {
      return await this.guardsAllow(execution, request);
    } catch (error) {
      // Hidden, but not silently: a guard that throws on lists is usually a bug (it should return a boolean).
      const reason = error instanceof Error ? error.message : String(error);
      this.spec.logger?.warn(`A guard of the ${kindLabel(this.info.kind)} '${this.info.name}' threw during ${listMethod}, so the list leaves it out: ${reason}`);
      return false;
    }
  }

  /**
   * The answer to a caller this component is not for, given without running anything: one lacking the
   * `@Scopes()` is refused naming them (the step-up design, docs/auth.md); one a guard turned away (`denied`)
   * gets the kind's "unknown" answer, or access denied with `guardDenial: 'refuse'`.
   */
  turnedAway(auth: McpAuth | undefined, extra: X): R {
    if (this.requiredScopes && missingScopes(auth, this.requiredScopes).length > 0) {
      return this.spec.fail(new InsufficientScopeError(`${kindLabel(this.info.kind)} '${this.info.name}'`, this.requiredScopes, auth !== undefined), extra);
    }
    return this.spec.guardDenial === 'refuse' ? this.spec.fail(this.refusal(), extra) : this.spec.denied(extra);
  }

  /**
   * Asks what a call with `args` asks before anything else runs (the scopes, then every guard with
   * `phase: 'call'`), for a call that must not begin unless they let it through (a task is created before its
   * run): undefined when they do, else `{ answer }`, the answer the call would give (what a guard threw goes
   * through the filters, as in a call). Go on with `admitted()`, so the guards are asked once.
   */
  async admit(args: unknown, open: () => RequestChannel, extra: X): Promise<{ answer: R } | undefined> {
    if (!this.guarded) return undefined;
    const context = new Context(open());
    if (this.requiredScopes && missingScopes(context.auth, this.requiredScopes).length > 0) return { answer: this.turnedAway(context.auth, extra) };
    const request = this.requestScoped ? this.spec.openScope(context) : undefined;
    const screen = async (): Promise<{ answer: R } | undefined> => {
      const data = this.spec.compiled.mapArguments ? await this.mapped(args, context) : { args: (args ?? {}) as Record<string, unknown> };
      if ('failed' in data) return { answer: this.failed(data.failed, extra) };
      const execution = new ExecutionContextHost(this.info, 'call', data.args, context);
      try {
        if (await this.guardsAllow(execution, request)) return undefined;
      } catch (error) {
        return { answer: await this.recover(error, execution, request, extra) };
      }
      return { answer: this.turnedAway(context.auth, extra) };
    };
    return request ? request.run(screen) : screen();
  }

  /** This pipeline without its guards, for a call that `admit()` let through (built once). */
  admitted(): Pipeline<R, X> {
    if (!this.spec.enhancers.guards) return this;
    return (this.unguarded ??= new Pipeline({ ...this.spec, enhancers: this.spec.enhancers.withoutGuards() }));
  }

  /** A Context is built per call (so the call may ask the client for input, and be re-entered). */
  get takesContext(): boolean {
    return this.needsContext;
  }

  /** True when some guard or the class is built per request: lists open one request scope for all checks. */
  get scopedPerRequest(): boolean {
    return this.requestScoped;
  }

  private general(args: unknown, open: (() => RequestChannel) | undefined, extra: X): Promise<R> {
    let channel = this.needsChannel ? open!() : undefined;
    // The Context's signal aborts at the deadline too, so a method that listens stops.
    const deadline = this.timeout !== undefined && channel ? new DeadlineChannel(channel) : undefined;
    if (deadline) channel = deadline;
    const context = this.needsContext ? new Context(channel!) : undefined;
    const request = this.requestScoped ? this.spec.openScope(context!) : undefined;
    const work = () => this.run(args, context, request, extra);
    const running = request ? request.run(work) : work();
    return this.timeout === undefined ? running : this.withDeadline(running, this.timeout, extra, deadline);
  }

  /** At the deadline the caller is answered (`… timed out after N ms`); a late answer is dropped. */
  private withDeadline(running: Promise<R>, ms: number, extra: X, deadline?: DeadlineChannel): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      const timer = setTimeout(() => {
        const error = new TimeoutError(`${capitalize(kindLabel(this.info.kind))} '${this.info.name}'`, ms);
        deadline?.expire(error);
        try {
          resolve(this.spec.fail(error, extra));
        } catch (answer) {
          reject(answer);
        }
      }, ms);
      running.then(
        (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    });
  }

  private async run(args: unknown, context: Context | undefined, request: RequestHandle | undefined, extra: X): Promise<R> {
    const { enhancers } = this.spec;
    // Outside the filters, like a guard's denial: the caller is told which scopes to ask for.
    if (this.requiredScopes && missingScopes(context!.auth, this.requiredScopes).length > 0) return this.turnedAway(context!.auth, extra);
    // Without transforms (the usual case) the arguments are the call's, with no await or wrapper on the way.
    let data = (args ?? {}) as Record<string, unknown>;
    if (this.spec.compiled.mapArguments) {
      const mapped = await this.mapped(args, context);
      if ('failed' in mapped) return this.failed(mapped.failed, extra);
      data = mapped.args;
    }
    const execution = context ? new ExecutionContextHost(this.info, 'call', data, context) : undefined;
    let value: unknown;
    let allowed = true;
    try {
      if (enhancers.guards) allowed = await this.guardsAllow(execution!, request);
      if (allowed) value = await this.intercepted(data, context, request, execution);
      if (context?.swallowedInput) throw this.swallowed(context.swallowedInput);
    } catch (error) {
      return this.recover(error, execution, request, extra);
    }
    // Outside the filters: a denial is never turned into another answer.
    if (!allowed) return this.turnedAway(context!.auth, extra); // the scopes passed: the guards' answer
    return this.converted(value, extra);
  }

  /** The call's arguments as the method declares them (transforms: renamed back, hidden ones filled). */
  private async mapped(args: unknown, context: Context | undefined): Promise<{ args: Record<string, unknown> } | { failed: unknown }> {
    const data = (args ?? {}) as Record<string, unknown>;
    const mapper = this.spec.compiled.mapArguments;
    if (!mapper) return { args: data };
    try {
      return { args: await mapper.map(data, context) };
    } catch (error) {
      return { failed: error };
    }
  }

  /** Asks the guards (the enhancers' `canActivate`); what a guard throws propagates. */
  private guardsAllow(execution: ExecutionContextHost, request: RequestHandle | undefined): Promise<boolean> {
    return this.spec.enhancers.canActivate(execution, request);
  }

  /** The interceptors around the rest (a value or a promise: the caller awaits it). */
  private intercepted(
    args: unknown,
    context: Context | undefined,
    request: RequestHandle | undefined,
    execution: ExecutionContextHost | undefined,
  ): unknown {
    const { enhancers } = this.spec;
    if (!enhancers.interceptors) return this.invoke(args, context, request, execution);
    return enhancers.intercept(execution!, request, () => {
      try {
        return Promise.resolve(this.invoke(args, context, request, execution));
      } catch (error) {
        return Promise.reject(error);
      }
    });
  }

  /** Validation, class-validator rules, pipes, the method: synchronous unless one of them is not. */
  private invoke(args: unknown, context: Context | undefined, request: RequestHandle | undefined, execution: unknown): unknown {
    const { compiled } = this.spec;
    const validation = compiled.validator.validate(args);
    // A Standard Schema with asynchronous rules answers later; every other validator answers now.
    if (isPromiseLike(validation)) return Promise.resolve(validation).then((settled) => this.invokeValidated(settled, context, request, execution));
    return this.invokeValidated(validation, context, request, execution);
  }

  private invokeValidated(validation: ValidationOutcome, context: Context | undefined, request: RequestHandle | undefined, execution: unknown): unknown {
    const { compiled } = this.spec;
    if (!validation.ok) throw new InvalidArgumentsError(validation.issues);
    const values = compiled.bind(validation.value, context, execution);
    if (compiled.runtimeChecked.length === 0 && this.slotPipes.length === 0 && !compiled.invoker.perRequest) {
      return compiled.invoker.invoke(values, undefined);
    }
    return this.invokeChecked(values, request);
  }

  private async invokeChecked(values: unknown[], request: RequestHandle | undefined): Promise<unknown> {
    const { compiled } = this.spec;
    if (compiled.runtimeChecked.length > 0) {
      const issues: string[] = [];
      for (const index of compiled.runtimeChecked) {
        const value = values[index];
        if (typeof value === 'object' && value !== null) issues.push(...(await classValidatorIssues(value)));
      }
      if (issues.length > 0) throw new InvalidArgumentsError(issues);
    }
    for (const [index, metadata] of this.slotPipes) values[index] = await this.spec.enhancers.transform(index, values[index], metadata, request);
    return compiled.invoker.invoke(values, request);
  }

  /** The first filter that handles the error answers; if none does (or it throws), the kind's own mapping. */
  private async recover(error: unknown, execution: ExecutionContextHost | undefined, request: RequestHandle | undefined, extra: X): Promise<R> {
    if (error instanceof InputRequiredSignal) throw error; // answered by the protocol layer (input required)
    if (!this.spec.enhancers.filters) return this.failed(error, extra);
    let recovered: { value: unknown } | undefined;
    try {
      recovered = await this.spec.enhancers.recover(error, execution!, request);
    } catch (rethrown) {
      return this.failed(rethrown, extra);
    }
    return recovered ? this.converted(recovered.value, extra) : this.failed(error, extra);
  }

  /**
   * The method returned although it asked the client for input: a try/catch swallowed the request. It is sent
   * all the same (the method is re-entered with the answer), and the author is told once how to fix it.
   */
  private swallowed(signal: InputRequiredSignal): InputRequiredSignal {
    if (!this.warnedSwallowed) {
      this.warnedSwallowed = true;
      this.spec.logger?.warn(
        `The ${kindLabel(this.info.kind)} '${this.info.name}' (${this.info.target.name}.${this.info.handler.name}) returned after asking the client for input: ` +
          `a try/catch around ctx.elicit(), ctx.sample(), ctx.elicitUrl() or ctx.listRoots() caught the request. It was sent anyway; ` +
          `call rethrowIfInputRequired(error) first in that catch.`,
      );
    }
    return signal;
  }

  private refusal(): ToolError {
    return new ToolError(`Access denied: the ${kindLabel(this.info.kind)} '${this.info.name}' is not available to this caller.`);
  }

  private converted(value: unknown, extra: X): R {
    try {
      return this.spec.convert(value, extra);
    } catch (error) {
      return this.failed(error, extra);
    }
  }

  private failed(error: unknown, extra: X): R {
    if (error instanceof InvalidArgumentsError) return this.spec.invalid(error.issues, extra);
    return this.spec.fail(error, extra);
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** How messages name a kind of component: 'tool', 'resource template', … */
function kindLabel(kind: McpComponentKind): string {
  return kind.replace('-', ' ');
}
