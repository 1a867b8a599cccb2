import { legacyOnly } from './legacy-only';
import type { EnhancerRef, ExecutionContext, ParamOptions, PipeTransform } from '../interfaces';
import { defineParamMetadata } from '../metadata';

type PipeRef = EnhancerRef<PipeTransform>;

/** A pipe is a class or an object with `transform`; anything else given after the name is the options. */
function isPipe(value: unknown): value is PipeRef {
  return typeof value === 'function' || (typeof value === 'object' && value !== null && typeof (value as PipeTransform).transform === 'function');
}

/**
 * Binds one named tool argument to this parameter. Without a name, the parameter's own name is used. Pipes
 * given after the name (or options) transform the validated value.
 *
 * @example
 * add(@Param() a: number, @Param('b', { description: 'second addend' }) b: number) {}
 * search(@Param('city', TrimPipe) city: string) {}
 */
export function Param(name?: string, ...optionsAndPipes: (ParamOptions | PipeRef)[]): ParameterDecorator;
export function Param(options: ParamOptions, ...pipes: PipeRef[]): ParameterDecorator;
export function Param(nameOrOptions?: string | ParamOptions, ...rest: (ParamOptions | PipeRef)[]): ParameterDecorator {
  const name = typeof nameOrOptions === 'string' ? nameOrOptions : undefined;
  const given = typeof nameOrOptions === 'object' && nameOrOptions !== null ? [nameOrOptions, ...rest] : rest;
  const options = (given.find((item) => !isPipe(item)) as ParamOptions | undefined) ?? {};
  const pipes = given.filter(isPipe);
  return (target, propertyKey, index) => {
    legacyOnly('@Param()', propertyKey);
    defineParamMetadata(target, String(propertyKey), {
      kind: 'param',
      index,
      name,
      options: { ...options },
      ...(pipes.length > 0 ? { pipes } : {}),
    });
  };
}

/**
 * Binds the whole arguments object to this parameter, as an instance of its DTO class (the reflected type).
 * Pipes given here transform the validated instance.
 *
 * @example
 * forecast(@Args() query: ForecastQuery) {}
 */
export function Args(...pipes: PipeRef[]): ParameterDecorator {
  return (target, propertyKey, index) => {
    legacyOnly('@Args()', propertyKey);
    defineParamMetadata(target, String(propertyKey), { kind: 'args', index, ...(pipes.length > 0 ? { pipes } : {}) });
  };
}

/**
 * Injects the request {@link Context} (progress, logging, cancellation). Never part of the input schema.
 *
 * @example
 * async slow(@Ctx() ctx: Context) { await ctx.reportProgress(1, 2); }
 */
export function Ctx(): ParameterDecorator {
  return (target, propertyKey, index) => {
    legacyOnly('@Ctx()', propertyKey);
    defineParamMetadata(target, String(propertyKey), { kind: 'ctx', index });
  };
}

/**
 * Makes a parameter decorator whose value `factory(data, context)` computes per call, from the request's
 * {@link ExecutionContext}. Such parameters never appear in the input schema.
 *
 * @example
 * const CurrentUser = createParamDecorator((field: string | undefined, ctx) => {
 *   const user = ctx.auth?.claims.user as Record<string, unknown> | undefined;
 *   return field ? user?.[field] : user;
 * });
 * @Tool() whoami(@CurrentUser('name') name: string) { return name; }
 */
export function createParamDecorator<D = unknown, R = unknown>(
  factory: (data: D, context: ExecutionContext) => R,
): (data?: D, ...pipes: PipeRef[]) => ParameterDecorator {
  return (data?: D, ...pipes: PipeRef[]) =>
    (target, propertyKey, index) => {
      defineParamMetadata(target, String(propertyKey), {
        kind: 'custom',
        index,
        factory: factory as (data: unknown, context: never) => unknown,
        data,
        ...(pipes.length > 0 ? { pipes } : {}),
      });
    };
}
