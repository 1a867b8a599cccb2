/** Where a schema is being built, for messages: "tool 'add' (Calc.add), parameter #1 'b'". */
export interface SchemaSite {
  /** The tool and its method, e.g. `tool 'add' (Calc.add)`. */
  readonly owner: string;
  /** The parameter or DTO property, e.g. `parameter #1 'b'` or `property Query.city`. */
  readonly position: string;
  /** How to state the type explicitly at this position. */
  readonly explicitFix: string;
  /** How to state the item type when the position is an array; defaults to explicitFix. */
  readonly arrayFix?: string;
  /** Which schema is being built (default: the input schema). */
  readonly schema?: 'input' | 'output';
}

function subjectOf(site: SchemaSite): string {
  return `the ${site.schema ?? 'input'} schema of ${site.owner}`;
}

export function unreflectableTypeMessage(site: SchemaSite, reflected: unknown): string {
  const what = reflected === undefined ? 'nothing (no type was emitted)' : describeReflected(reflected);
  return (
    `Cannot build ${subjectOf(site)}: the type of ${site.position} was reflected as ${what}.\n` +
    `Cause: TypeScript erases interfaces, unions, type aliases, 'any', mixed enums and type-only imports (import type) ` +
    `to Object at runtime, so there is nothing to build a schema from.\n` +
    `Fix: ${site.explicitFix}`
  );
}

export function arrayItemTypeMessage(site: SchemaSite): string {
  return (
    `Cannot build ${subjectOf(site)}: ${site.position} is an array, but its item type is unknown ` +
    `(TypeScript reflects every array as Array).\n` +
    `Fix: ${site.arrayFix ?? site.explicitFix}`
  );
}

export function emptyDtoMessage(site: SchemaSite, cls: Function): string {
  return (
    `Cannot build ${subjectOf(site)}: ${site.position} has class ${cls.name}, which declares no ` +
    `validated properties, so its schema would be an empty object.\n` +
    `Fix: decorate the properties of ${cls.name} with class-validator decorators (@IsString(), @IsInt(), …) or @Field({ … }).`
  );
}

export function unsupportedClassMessage(site: SchemaSite, cls: Function): string {
  return (
    `Cannot build ${subjectOf(site)}: ${site.position} has type ${cls.name}, which JSON cannot carry.\n` +
    `Fix: ${site.explicitFix}`
  );
}

function describeReflected(value: unknown): string {
  if (typeof value === 'function') return value.name || 'an anonymous function';
  return String(value);
}
