import { legacyOnly } from './legacy-only';
import type { CanActivate, EnhancerRef, ExceptionFilter, McpInterceptor, PipeTransform } from '../interfaces';
import { defineCatch, defineCustomMetadata, defineEnhancers, type EnhancerKind } from '../metadata';

/** A decorator for a class (every component method of it) or for one method. */
export type ClassOrMethodDecorator = ClassDecorator & MethodDecorator;

function enhance(kind: EnhancerKind, items: readonly unknown[]): ClassOrMethodDecorator {
  return ((target: object, key?: string | symbol) => {
    legacyOnly(`@${{ guards: 'UseGuards', interceptors: 'UseInterceptors', pipes: 'UsePipes', filters: 'UseFilters' }[kind]}()`, key);
    // Checked at bootstrap, where the message can name the class and method it decorates.
    defineEnhancers(kind, target, key === undefined ? undefined : String(key), items);
  }) as ClassOrMethodDecorator;
}

/**
 * Guards decide whether the caller may use a component (and whether lists show it). Classes are built by
 * the container (constructor injection, request scope); instances are used as they are.
 *
 * @example
 * @UseGuards(RoleGuard)
 * @Tool() purge() { … }
 */
export function UseGuards(...guards: EnhancerRef<CanActivate>[]): ClassOrMethodDecorator {
  return enhance('guards', guards);
}

/**
 * Interceptors wrap the call: `intercept(context, next)` runs code around `await next.handle()`.
 *
 * @example
 * @UseInterceptors(TimingInterceptor)
 * class ReportTools { … }
 */
export function UseInterceptors(...interceptors: EnhancerRef<McpInterceptor>[]): ClassOrMethodDecorator {
  return enhance('interceptors', interceptors);
}

/**
 * Pipes transform every argument parameter (`@Param()`, `@Args()`) after validation.
 *
 * @example
 * @UsePipes(TrimPipe)
 * @Tool() search(@Param() query: string) { … }
 */
export function UsePipes(...pipes: EnhancerRef<PipeTransform>[]): ClassOrMethodDecorator {
  return enhance('pipes', pipes);
}

/**
 * Exception filters turn what the pipeline threw into an answer (or another error).
 *
 * @example
 * @UseFilters(UpstreamErrorFilter)
 * class WeatherTools { … }
 */
export function UseFilters(...filters: EnhancerRef<ExceptionFilter>[]): ClassOrMethodDecorator {
  return enhance('filters', filters);
}

/**
 * Says which errors an exception filter handles (instances of these classes or their subclasses); without
 * arguments, every error.
 *
 * @example
 * @Catch(TypeError)
 * class FetchFailedFilter implements ExceptionFilter { catch(error: TypeError) { … } }
 */
export function Catch(...types: Function[]): ClassDecorator {
  return ((target: Function, context?: unknown) => {
    legacyOnly('@Catch()', context);
    defineCatch(target, types);
  }) as ClassDecorator;
}

/**
 * Attaches custom metadata to a class or method, for guards and interceptors to read with `Reflector`.
 *
 * @example
 * const Roles = (...roles: string[]) => SetMetadata('roles', roles);
 * @Roles('admin') @Tool() purge() { … }
 */
export function SetMetadata<V = unknown>(key: string | symbol, value: V): ClassOrMethodDecorator {
  return ((target: object, property?: string | symbol, descriptor?: PropertyDescriptor) => {
    legacyOnly('@SetMetadata()', property);
    defineCustomMetadata(key, value, property === undefined ? target : (descriptor?.value ?? (target as Record<string | symbol, object>)[property]));
  }) as ClassOrMethodDecorator;
}
