import { AsyncResource } from 'node:async_hooks';
import type { CallHandler, ExecutionContext, NestInterceptor } from '@nestjs/common';
import { from, isObservable, lastValueFrom, mergeAll, Observable, type Subscriber } from 'rxjs';

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
          if (index === interceptors.length) return void handlerValue(next, subscriber);
          return observed(interceptors[index].intercept(context, handlerAt(index + 1))).subscribe(subscriber);
        }),
      ),
  });
  const answer = await interceptors[0].intercept(context, handlerAt(1));
  return isObservable(answer) ? lastValueFrom(answer) : answer;
}

/**
 * The handler's value to the innermost `next.handle()`; an Observable it returns is flattened, as Nest does. One
 * Observable per call instead of rxjs's `from(promise).pipe(mergeMap(…))`: this runs on every intercepted call.
 * A subscriber that unsubscribed meanwhile (a `timeout()`) is closed, and rxjs ignores what reaches it.
 */
function handlerValue(next: () => Promise<unknown>, subscriber: Subscriber<unknown>): void {
  next().then(
    (value) => {
      if (isObservable(value)) return void value.subscribe(subscriber);
      subscriber.next(value);
      subscriber.complete();
    },
    (error: unknown) => subscriber.error(error),
  );
}

/** What an interceptor returned (an Observable, or a promise of one) as an Observable. */
function observed(value: unknown): Observable<unknown> {
  if (isObservable(value)) return value;
  return from(Promise.resolve(value) as Promise<Observable<unknown>>).pipe(mergeAll());
}
