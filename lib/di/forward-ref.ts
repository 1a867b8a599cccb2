import type { DependencyToken, ForwardReference, InjectionToken } from '../interfaces';

/**
 * Refers to a class or module that is not defined yet where the reference is written: two modules that
 * import each other, or two providers that inject each other.
 *
 * @example
 * @Module({ imports: [forwardRef(() => OrdersModule)] })
 * class UsersModule {}
 *
 * // Two classes that inject each other: type the parameter with `import type` (or an interface), since the
 * // class is not defined yet when this one is; put forwardRef in the file that loads first (docs/errors.md).
 * constructor(@Inject(forwardRef(() => OrdersService)) private readonly orders: OrdersServiceType) {}
 */
export function forwardRef<T>(fn: () => T): ForwardReference<T> {
  return { forwardRef: fn };
}

export function isForwardRef(value: unknown): value is ForwardReference {
  return typeof value === 'object' && value !== null && typeof (value as ForwardReference).forwardRef === 'function';
}

export function resolveToken(token: DependencyToken): InjectionToken {
  return isForwardRef(token) ? (token.forwardRef() as InjectionToken) : token;
}
