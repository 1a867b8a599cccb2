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
