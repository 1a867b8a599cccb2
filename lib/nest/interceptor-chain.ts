import { AsyncResource } from 'node:async_hooks';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { from, isObservable, lastValueFrom, mergeAll, mergeMap, Observable, of } from 'rxjs';

/**
 * Nest's interceptors around one MCP call, as Nest runs them (the first outermost; `next.handle()` an
 * Observable of the rest; an Observable answer yields its last value), built for the per-call path: where
 * Nest's InterceptorsConsumer binds an AsyncResource and defers twice at every step, this chain runs every
 * step in one AsyncResource of the call, so the call's async context (AsyncLocalStorage) reaches the handler
 * whenever an interceptor subscribes.
 */
export async function runInterceptors(interceptors: readonly NestInterceptor[], context: ExecutionContext, next: () => Promise<unknown>): Promise<unknown> {
  const scope = new AsyncResource('mcp-reflect.NestInterceptors');
  const handlerAt = (index: number): CallHandler => ({
    handle: () =>
      new Observable<unknown>((subscriber) =>
        scope.runInAsyncScope(() => {
          const rest = index === interceptors.length ? handlerValue(next) : observed(interceptors[index].intercept(context, handlerAt(index + 1)));
          return rest.subscribe(subscriber);
        }),
      ),
  });
  const answer = await interceptors[0].intercept(context, handlerAt(1));
  return isObservable(answer) ? lastValueFrom(answer) : answer;
}

/** The handler's value; a Promise or an Observable it returns is flattened, as Nest does. */
function handlerValue(next: () => Promise<unknown>): Observable<unknown> {
  return from(next()).pipe(mergeMap((value) => (isObservable(value) ? value : of(value))));
}

/** What an interceptor returned (an Observable, or a promise of one) as an Observable. */
function observed(value: unknown): Observable<unknown> {
  if (isObservable(value)) return value;
  return from(Promise.resolve(value) as Promise<Observable<unknown>>).pipe(mergeAll());
}
