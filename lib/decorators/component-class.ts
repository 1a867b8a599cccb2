import { defineComponentOrigin, defineParamTypes, forgetComponentClass } from '../metadata';

/** What a method of a {@link ComponentClass} is decorated with: the prototype, its key and its descriptor. */
export type ComponentDecoration = (prototype: object, key: string, descriptor: PropertyDescriptor) => void;

/**
 * A class of decorated methods built at run time, for components that come from elsewhere than a class a user
 * wrote (a proxied server's catalogue, an OpenAPI document): each method is written on the prototype with the
 * parameter types a compiler would have emitted, then decorated with the same decorators (`@Tool()`, `@Args()`,
 * `@Ctx()` …) a hand-written class uses, so it runs through the application's one pipeline like any other.
 * A new class per source, since the record of decorated methods is fixed once written.
 *
 * @example
 * const built = new ComponentClass('Echo');
 * built.method('tool', 'echo', (args: unknown) => args, [Object], (proto, key, descriptor) => {
 *   Tool({ name: 'echo', inputSchema: { type: 'object' } })(proto, key, descriptor);
 *   Args()(proto, key, 0);
 * });
 * app.tools.add(built.instantiate());
 */
export class ComponentClass {
  readonly target: new () => object;
  private readonly keys = new Set<string>();

  /**
   * `origin` names where the components come from when their schemas are known only at run time (`the remote MCP
   * server 'ev' (…)`): they are then validated without code generation where the runtime forbids it, and an
   * invalid schema is reported as that source's, not a decorator's.
   */
  constructor(className: string, origin?: string) {
    this.target = { [className]: class {} }[className];
    if (origin !== undefined) defineComponentOrigin(this.target, origin);
  }

  /**
   * Writes `fn` as a method of the class under a key unique to it (`kind:name`, then `kind:name#2` …), with
   * `types` as its reflected parameter types, and lets `decorate` apply the decorators. Returns the key.
   */
  method(kind: string, name: string, fn: (...args: any[]) => unknown, types: readonly unknown[], decorate: ComponentDecoration): string {
    let key = `${kind}:${name}`;
    for (let i = 2; this.keys.has(key); i++) key = `${kind}:${name}#${i}`;
    this.keys.add(key);
    const prototype = this.target.prototype as object;
    Object.defineProperty(prototype, key, { value: fn, writable: true, configurable: true });
    defineParamTypes(prototype, key, types);
    decorate(prototype, key, Object.getOwnPropertyDescriptor(prototype, key)!);
    return key;
  }

  /**
   * The instance to serve. The class leaves the process record of decorated classes: the application that
   * built it serves it (it is never "unprovided"), and a class per source must not stay there for good.
   */
  instantiate(): object {
    forgetComponentClass(this.target);
    return new this.target();
  }
}
