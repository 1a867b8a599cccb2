import type { EnumLike, GeneratedType, JsonSchema, TypeHint, TypeRef } from '../interfaces';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ConstraintType } from './constraint-map';
import { enumSchema, enumValues } from './enum-values';
import type { SchemaContext } from './schema-context';
import { arrayItemTypeMessage, unreflectableTypeMessage, unsupportedClassMessage, type SchemaSite } from './schema.messages';
import { PRIMITIVE_TYPES, arrayOf, mergeSchema, toDate, type Converter, type ShapedSchema } from './shaped-schema';

/** Everything known about the type at one position, most explicit first. */
export interface TypeInputs {
  /** `type` from `@Param()` / `@Field()`. */
  readonly explicit?: TypeHint;
  /** `design:type` / `design:paramtypes` from emitDecoratorMetadata. */
  readonly reflected?: unknown;
  /** class-transformer's `@Type(() => X)`. */
  readonly classHint?: Function;
  /** The type a class-validator constraint implies (`@IsString()` → string), for the value or each item. */
  readonly constraintType?: ConstraintType;
  readonly itemConstraintType?: ConstraintType;
  /** Constraints that only make sense on arrays (`each: true`, `@ArrayMinSize()`). */
  readonly arrayConstraints?: boolean;
  /** Keywords that already fix the type (an enum), so reflection may stay silent. */
  readonly typedKeywords?: JsonSchema;
  readonly itemTypedKeywords?: JsonSchema;
  readonly enum?: EnumLike;
  /** A user schema merged last; if it states a type, nothing needs reflecting. */
  readonly schema?: JsonSchema;
  /** The type `mcp-reflect generate` read from the source: below explicit options and `@Type()`, above reflection. */
  readonly generated?: GeneratedType;
}

const UNUSABLE = new Set<unknown>([undefined, Object, Function, Promise, Symbol]);

/** Resolves the schema (and converter) of one parameter or property from everything known about it. */
export function typedSchema(inputs: TypeInputs, ctx: SchemaContext, site: SchemaSite): ShapedSchema {
  const { generated } = inputs;
  if (generated && inputs.explicit === undefined && inputs.classHint === undefined && !statesType(inputs.schema)) {
    return generatedSchema(generated, inputs, ctx, site);
  }
  const explicitArray = Array.isArray(inputs.explicit);
  const isArray =
    explicitArray ||
    (inputs.explicit === undefined &&
      (inputs.reflected === Array || inputs.constraintType === 'array' || inputs.arrayConstraints === true));
  const enumKeywords = inputs.enum === undefined ? undefined : enumSchema(enumValues(inputs.enum));

  if (isArray) {
    const itemRef: TypeRef | undefined = explicitArray
      ? (inputs.explicit as readonly [TypeRef])[0]
      : (inputs.classHint ?? constraintRef(inputs.itemConstraintType));
    if (itemRef === undefined) {
      if (enumKeywords) return arrayOf({ schema: enumKeywords });
      if (inputs.itemTypedKeywords) return arrayOf({ schema: { ...inputs.itemTypedKeywords } });
      if (isObject(inputs.schema?.items)) return { schema: { type: 'array' } };
      throw new BootstrapError(BootstrapErrorCode.ArrayItemTypeMissing, arrayItemTypeMessage(site));
    }
    const items = refSchema(itemRef, ctx, site);
    return arrayOf(enumKeywords ? { ...items, schema: mergeSchema(items.schema, enumKeywords) } : items);
  }

  const ref: TypeRef | undefined =
    (inputs.explicit as TypeRef | undefined) ??
    (inputs.classHint && !UNUSABLE.has(inputs.classHint) ? inputs.classHint : undefined) ??
    (UNUSABLE.has(inputs.reflected) || typeof inputs.reflected !== 'function' ? undefined : (inputs.reflected as TypeRef)) ??
    constraintRef(inputs.constraintType);
  if (ref === undefined) {
    const stated =
      enumKeywords ??
      inputs.typedKeywords ??
      (inputs.constraintType === 'object' ? { type: 'object' } : undefined) ??
      (statesType(inputs.schema) ? {} : undefined);
    if (stated) return { schema: { ...stated } };
    throw new BootstrapError(BootstrapErrorCode.UnreflectableType, unreflectableTypeMessage(site, inputs.reflected));
  }
  const shaped = refSchema(ref, ctx, site);
  return enumKeywords ? { ...shaped, schema: mergeSchema(shaped.schema, enumKeywords) } : shaped;
}

/**
 * A generated type: a class (Date, a DTO) is built from the class itself, so its rules and converter apply;
 * everything else is the generated schema as it is, narrowed by a class-validator type (`@IsInt()`).
 */
function generatedSchema(generated: GeneratedType, inputs: TypeInputs, ctx: SchemaContext, site: SchemaSite): ShapedSchema {
  const cls = generated.class ? ctx.types.resolveClass(generated.class, generated.array ? undefined : inputs.reflected) : undefined;
  if (cls) {
    const shaped = typedSchema({ ...inputs, generated: undefined, explicit: generated.array ? [cls] : cls }, ctx, site);
    return generated.nullable ? nullable(shaped) : shaped;
  }
  let schema: JsonSchema = { ...generated.schema };
  if (inputs.constraintType === 'integer' && schema.type === 'number') schema = { ...schema, type: 'integer' };
  const enumKeywords = inputs.enum === undefined ? undefined : enumSchema(enumValues(inputs.enum));
  const convert = generatedDates(generated.schema);
  return { schema: mergeSchema(schema, enumKeywords), ...(convert ? { convert } : {}) };
}

/**
 * The converter of the `Date`s inside a generated inline schema (an interface, a type literal, a tuple, a
 * Record): only a TypeScript `Date` becomes `format: 'date-time'` in generated schemas, so each such position
 * is built as a `Date`, as a `Date` parameter is. Compiled once per schema; undefined when there is none.
 * (Members of an `anyOf` are left as sent: which member a value matched is not known here.)
 */
export function generatedDates(schema: JsonSchema): Converter | undefined {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (schema.format === 'date-time' && types.includes('string')) return (v) => (typeof v === 'string' ? toDate(v) : v);
  const items = isObject(schema.items) ? generatedDates(schema.items) : undefined;
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]).map(generatedDates) : [];
  if (items || prefix.some(Boolean)) {
    return (v) => (Array.isArray(v) ? v.map((item, i) => (item == null ? item : (prefix[i] ?? items)?.(item) ?? item)) : v);
  }
  const named = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>)
    .map(([key, s]) => [key, generatedDates(s)] as const)
    .filter((entry): entry is readonly [string, Converter] => entry[1] !== undefined);
  const known = new Set(Object.keys((schema.properties ?? {}) as object));
  const rest = isObject(schema.additionalProperties) ? generatedDates(schema.additionalProperties) : undefined;
  if (named.length === 0 && !rest) return undefined;
  return (v) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return v;
    const out: Record<string, unknown> = { ...v };
    for (const [key, convert] of named) if (out[key] != null) out[key] = convert(out[key]);
    if (rest) for (const key of Object.keys(out)) if (!known.has(key) && key !== '__proto__' && out[key] != null) out[key] = rest(out[key]);
    return out;
  };
}

function nullable(shaped: ShapedSchema): ShapedSchema {
  const { schema, convert } = shaped;
  const widened: JsonSchema =
    typeof schema.type === 'string' && !('$ref' in schema) ? { ...schema, type: [schema.type, 'null'] } : { anyOf: [schema, { type: 'null' }] };
  return { schema: widened, convert: convert ? (value) => (value === null ? null : convert(value)) : undefined };
}

/** The schema of one type reference: a primitive, Date, or a DTO class. */
export function refSchema(ref: TypeRef, ctx: SchemaContext, site: SchemaSite): ShapedSchema {
  const primitive = PRIMITIVE_TYPES.get(ref);
  if (primitive) return { schema: { type: primitive } };
  if (ref === Date) return { schema: { type: 'string', format: 'date-time' }, convert: toDate };
  if (ref === Array) throw new BootstrapError(BootstrapErrorCode.ArrayItemTypeMissing, arrayItemTypeMessage(site));
  if (UNUSABLE.has(ref) || typeof ref !== 'function') {
    throw new BootstrapError(BootstrapErrorCode.UnreflectableType, unreflectableTypeMessage(site, ref));
  }
  if (NON_JSON_CLASSES.has(ref)) {
    throw new BootstrapError(BootstrapErrorCode.UnreflectableType, unsupportedClassMessage(site, ref));
  }
  return ctx.dto(ref, ctx, site);
}

const NON_JSON_CLASSES = new Set<Function>([Map, Set, WeakMap, WeakSet, RegExp, Error, BigInt, ArrayBuffer, Uint8Array]);

function constraintRef(type: ConstraintType | undefined): TypeRef | undefined {
  switch (type) {
    case 'date':
      return Date;
    case 'object':
      return undefined;
    case 'array':
      return undefined;
    default:
      return type;
  }
}

/** True when a user schema fixes the type itself (so nothing needs reflecting). */
export function statesType(schema: JsonSchema | undefined): boolean {
  if (!schema) return false;
  return ['type', 'enum', 'const', '$ref', 'anyOf', 'oneOf', 'allOf'].some((k) => k in schema);
}

function isObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
