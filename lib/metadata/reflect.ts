// reflect-metadata is a peer dependency: importing it here (idempotent, one global registry) means a user
// who forgets `import 'reflect-metadata'` still gets working decorators.
import 'reflect-metadata';


export function defineMetadata(key: string, value: unknown, target: object, property?: string | symbol): void {
  if (property === undefined) Reflect.defineMetadata(key, value, target);
  else Reflect.defineMetadata(key, value, target, property);
}

export function getMetadata<T>(key: string, target: object, property?: string | symbol): T | undefined {
  return (property === undefined ? Reflect.getMetadata(key, target) : Reflect.getMetadata(key, target, property)) as
    | T
    | undefined;
}

export function getOwnMetadata<T>(key: string, target: object, property?: string | symbol): T | undefined {
  return (
    property === undefined ? Reflect.getOwnMetadata(key, target) : Reflect.getOwnMetadata(key, target, property)
  ) as T | undefined;
}

/**
 * Adds `method` to the method list under `key` on `prototype`. The prototype's own list grows in place (a class
 * of 1,000 tools makes one list, not 1,000 copies); an inherited list is copied first, so that a subclass never
 * changes its parent's.
 */
export function appendMethod(key: string, prototype: object, method: string): void {
  const own = getOwnMetadata<string[]>(key, prototype);
  if (own) {
    if (!own.includes(method)) own.push(method);
    return;
  }
  const inherited = getMetadata<string[]>(key, prototype) ?? [];
  if (!inherited.includes(method)) defineMetadata(key, [...inherited, method], prototype);
}

/** Gives `to` every metadata entry `from` holds itself (a stand-in of a method carries the method's decorators). */
export function copyOwnMetadata(from: object, to: object): void {
  for (const key of Reflect.getOwnMetadataKeys(from)) Reflect.defineMetadata(key, Reflect.getOwnMetadata(key, from), to);
}
