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
