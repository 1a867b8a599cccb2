import type { Converter } from './shaped-schema';

/** One property of a DTO as its compiled constructor copies it: the key, and the converter of its value (a nested DTO, a Date). */
export interface DtoProperty {
  readonly key: string;
  readonly convert?: Converter;
}

/**
 * Why a DTO class must be built by class-transformer itself, decided once at bootstrap, or undefined when its
 * compiled constructor builds the same instance. `storage` is class-transformer's metadata storage. The compiled
 * constructor covers `@Type(() => X)` (nested DTOs, arrays of them, Dates), defaults from property initialisers,
 * getters and methods; not the rules that rename, drop, rewrite or pick the class of a value per call.
 */
export function transformerNeed(cls: Function, keys: readonly string[], storage: TransformerStorage, plainToClass: number): string | undefined {
  if (storage.getExposedMetadatas(cls).length > 0) return '@Expose()';
  if (storage.getExcludedMetadatas(cls).length > 0) return '@Exclude()';
  for (const key of keys) {
    if (storage.findTransformMetadatas(cls, key, plainToClass).length > 0) return `@Transform() on ${key}`;
    const type = storage.findTypeMetadata(cls, key);
    if (type?.options?.discriminator) return `@Type() with a discriminator on ${key}`;
    // `@Type((options) => …)` chooses the class from the value on every call.
    if (type?.typeFunction && type.typeFunction.length > 0) return `@Type() choosing the class per value on ${key}`;
  }
  return undefined;
}

/** The part of class-transformer's metadata storage read here. */
export interface TransformerStorage {
  getExposedMetadatas(target: Function): unknown[];
  getExcludedMetadatas(target: Function): unknown[];
  findTransformMetadatas(target: Function, propertyName: string, transformationType: number): unknown[];
  findTypeMetadata(target: Function, propertyName: string): { typeFunction?: Function; options?: { discriminator?: unknown } } | undefined;
}

/**
 * The compiled constructor of a DTO class: what `plainToInstance(cls, value, { enableImplicitConversion: true })`
 * makes of a value the DTO's schema accepted, with the least work. `new cls()` (so initialisers give the defaults
 * of absent properties, and the prototype's getters and methods are there), then each property the schema
 * declares, in the schema's order, copied when sent and converted when it holds a DTO or a Date (null stays null).
 * The schema admits no other key (additionalProperties: false), so no key of the value needs looking at.
 * As class-transformer does, it never writes `__proto__` or `constructor`, a getter without a setter of the class,
 * nor a key the new instance holds a function under (a method). Undefined when `new cls()` throws at bootstrap:
 * class-transformer builds that class (and throws the same way per call).
 */
export function compiledConstructor(cls: new () => object, properties: readonly DtoProperty[]): Converter | undefined {
  let probe: Record<string, unknown>;
  try {
    probe = new cls() as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const copied = properties.filter(({ key }) => !skipped(cls, probe, key));
  const keys = copied.map((p) => p.key);
  const converters = copied.map((p) => p.convert);
  const count = keys.length;
  return (value: Record<string, unknown>) => {
    const instance = new cls() as Record<string, unknown>;
    for (let i = 0; i < count; i++) {
      const key = keys[i];
      const v = value[key];
      if (v === undefined) continue;
      const convert = converters[i];
      instance[key] = convert === undefined || v === null ? v : convert(v);
    }
    return instance;
  };
}

/** The keys class-transformer leaves alone when it builds an instance (TransformOperationExecutor, plain to class). */
function skipped(cls: Function, probe: Record<string, unknown>, key: string): boolean {
  if (key === '__proto__' || key === 'constructor') return true;
  const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, key);
  return (descriptor !== undefined && descriptor.set === undefined) || probe[key] instanceof Function;
}
