import type { ParamOptions } from '../interfaces';
import { defineParamMetadata } from '../metadata';

/**
 * Binds one named tool argument to this parameter. Without a name, the parameter's own name is used.
 *
 * @example
 * add(@Param() a: number, @Param('b', { description: 'second addend' }) b: number) {}
 */
export function Param(name?: string, options?: ParamOptions): ParameterDecorator;
export function Param(options: ParamOptions): ParameterDecorator;
export function Param(nameOrOptions?: string | ParamOptions, maybeOptions: ParamOptions = {}): ParameterDecorator {
  const name = typeof nameOrOptions === 'string' ? nameOrOptions : undefined;
  const options = typeof nameOrOptions === 'object' && nameOrOptions !== null ? nameOrOptions : maybeOptions;
  return (target, propertyKey, index) => {
    defineParamMetadata(target, String(propertyKey), { kind: 'param', index, name, options: { ...options } });
  };
}

/**
 * Binds the whole arguments object to this parameter, as an instance of its DTO class (the reflected type).
 *
 * @example
 * forecast(@Args() query: ForecastQuery) {}
 */
export function Args(): ParameterDecorator {
  return (target, propertyKey, index) => {
    defineParamMetadata(target, String(propertyKey), { kind: 'args', index });
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
    defineParamMetadata(target, String(propertyKey), { kind: 'ctx', index });
  };
}
