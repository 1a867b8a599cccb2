/**
 * Every class that got a component decorator (`@Tool()`, `@Resource()`, `@ResourceTemplate()`,
 * `@ResourceList()`, `@Prompt()`, `@Complete()`) in this process, in the order they were decorated. The
 * bootstrap compares it with the classes an application serves, to name the ones no module provides.
 * Process-wide by nature (decorators run at class definition): readers decide when it means one application.
 */
const componentClasses = new Set<Function>();

/** Records the class of a decorated method (`target` is its prototype, or the class for a static method). */
export function recordComponentClass(target: object): void {
  componentClasses.add(typeof target === 'function' ? target : (target as { constructor: Function }).constructor);
}

/** The classes recorded so far. */
export function getComponentClasses(): readonly Function[] {
  return [...componentClasses];
}

/**
 * Forgets a class built at run time to carry components (a proxied server's catalogue): it is served by the
 * application that built it, never "unprovided", and a class per catalogue must not stay here for good.
 */
export function forgetComponentClass(target: Function): void {
  componentClasses.delete(target);
}

/** Where the components of a class built at run time come from, for the classes that name it. */
const origins = new WeakMap<Function, string>();

/**
 * Records that the components of `target` come from elsewhere than code (`the remote MCP server 'ev' (…)`): their
 * schemas are known only at run time, and messages about them name that source, not a decorator.
 */
export function defineComponentOrigin(target: Function, origin: string): void {
  origins.set(target, origin);
}

export function getComponentOrigin(target: Function): string | undefined {
  return origins.get(target);
}
