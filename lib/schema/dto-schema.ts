import type { GeneratedProperty, JsonSchema } from '../interfaces';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { getFieldOptions, getFieldProperties, getPropertyType } from '../metadata';
import { adaptKeywords, constraintKeywords, constraintType, type ConstraintType } from './constraint-map';
import type { SchemaContext } from './schema-context';
import { emptyDtoMessage, type SchemaSite } from './schema.messages';
import { compiledConstructor, transformerNeed, type DtoProperty } from './dto-instance';
import { documented, mergeSchema, type Converter, type ShapedSchema } from './shaped-schema';
import { typedSchema } from './type-schema';

// class-transformer loads with the first DTO class: a server whose tools take only @Param() values, or
// @Field() DTOs, never loads it (unless its own code does).
let transformerModule: typeof import('class-transformer') | undefined;
let storageModule: typeof import('class-transformer/cjs/storage') | undefined;
const transformer = () => (transformerModule ??= require('class-transformer') as typeof import('class-transformer'));
const transforms = () => (storageModule ??= require('class-transformer/cjs/storage') as typeof import('class-transformer/cjs/storage')).defaultMetadataStorage;

interface ValidationMeta {
  readonly type: string;
  readonly name?: string;
  readonly propertyName: string;
  readonly constraints?: unknown[];
  readonly each?: boolean;
}

// class-validator's structural validation types (ValidationTypes): not constraints on the value itself.
const NESTED = 'nestedValidation';
const CONDITIONAL = 'conditionalValidation';
const IS_DEFINED = 'isDefined';
const WHITELIST = 'whitelistValidation';

/**
 * A DTO class → an object schema from its class-validator rules, with a converter that builds an instance
 * (nested DTOs and Dates included). A class already on the path is recursive: it is emitted once in `$defs`
 * and referenced with `$ref`; all other DTOs are inlined.
 */
export function dtoSchema(cls: Function, ctx: SchemaContext, site: SchemaSite): ShapedSchema {
  let holder = ctx.converters.get(cls);
  if (!holder) ctx.converters.set(cls, (holder = {}));
  if (ctx.stack.includes(cls)) {
    ctx.recursive.add(cls);
    const late = holder;
    return { schema: ctx.ref(cls), convert: (value) => late.fn!(value) };
  }
  ctx.stack.push(cls);
  try {
    const built = buildObject(cls, ctx, site);
    holder.fn = built.convert;
    if (!ctx.recursive.has(cls)) return built;
    ctx.defs[ctx.defName(cls)] = built.schema;
    return { schema: ctx.ref(cls), convert: built.convert };
  } finally {
    ctx.stack.pop();
  }
}

/**
 * class-validator's rules of `cls`. class-validator keeps them in a global storage that its decorators create:
 * without that global no class-validator decorator has run, so the package is not even loaded (it costs a
 * stdio server about a hundred milliseconds of startup; DTOs declared with `@Field()` alone never pay it).
 */
function classValidatorRules(cls: Function): ValidationMeta[] {
  if (!(globalThis as { classValidatorMetadataStorage?: unknown }).classValidatorMetadataStorage) return [];
  const { getMetadataStorage } = require('class-validator') as typeof import('class-validator');
  return getMetadataStorage().getTargetValidationMetadatas(cls, '', false, false) as unknown as ValidationMeta[];
}

function buildObject(cls: Function, ctx: SchemaContext, site: SchemaSite): ShapedSchema & { convert: Converter } {
  const metas = classValidatorRules(cls);
  const byProperty = new Map<string, ValidationMeta[]>();
  for (const meta of metas) {
    const list = byProperty.get(meta.propertyName) ?? [];
    list.push(meta);
    byProperty.set(meta.propertyName, list);
  }
  for (const property of getFieldProperties(cls)) if (!byProperty.has(property)) byProperty.set(property, []);
  // With generated types every property is known, decorated or not.
  const typed = ctx.types.properties(cls);
  const generated = typed ?? {};
  for (const property of Object.keys(generated)) if (!byProperty.has(property)) byProperty.set(property, []);
  if (!typed) for (const property of initialisedProperties(cls)) if (!byProperty.has(property)) ctx.undecorated.add(`${cls.name}.${property}`);
  if (byProperty.size === 0) {
    throw new BootstrapError(BootstrapErrorCode.UnreflectableType, emptyDtoMessage(site, cls));
  }

  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const copied: DtoProperty[] = [];
  for (const [property, list] of byProperty) {
    const propertySite: SchemaSite = {
      owner: site.owner,
      position: `property ${cls.name}.${property} (in ${site.position})`,
      explicitFix:
        `add a class-validator type decorator to ${cls.name}.${property} (@IsString(), @IsInt(), @IsEnum(MyEnum), ` +
        `@ValidateNested() with @Type(() => ItemDto), …) or state the type with @Field({ type | enum | schema }).`,
      arrayFix:
        `add a class-validator type decorator with each: true to ${cls.name}.${property} (e.g. @IsString({ each: true })), ` +
        `@ValidateNested({ each: true }) with @Type(() => ItemDto), or state the item type with @Field({ type: [String] }).`,
    };
    const typed = Object.hasOwn(generated, property) ? generated[property] : undefined;
    const shaped = propertySchema(cls, property, list, ctx, propertySite, typed);
    properties[property] = shaped.schema;
    copied.push({ key: property, convert: shaped.convert });
    const optional = getFieldOptions(cls, property)?.optional ?? typed?.optional ?? false;
    if (isRequired(list, optional) && shaped.schema.default === undefined) required.push(property);
  }

  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return { schema, convert: instanceConverter(cls as new () => object, copied) };
}

/**
 * How an instance of `cls` is built per call, decided here once: by its compiled constructor, or by class-transformer
 * when the DTO uses a rule of class-transformer's the constructor does not cover (docs/validation.md#dto-instances).
 */
function instanceConverter(cls: new () => object, properties: DtoProperty[]): Converter {
  const need = transformerNeed(cls, properties.map((p) => p.key), transforms(), transformer().TransformationType.PLAIN_TO_CLASS);
  return (need === undefined ? compiledConstructor(cls, properties) : undefined) ?? transformerConverter(cls);
}

/** class-transformer's `plainToInstance`, for a DTO that uses its own rules. */
function transformerConverter(cls: new () => object): Converter {
  const { plainToInstance } = transformer();
  return (value: object) => plainToInstance(cls, value, { enableImplicitConversion: true });
}

function propertySchema(
  cls: Function,
  property: string,
  metas: ValidationMeta[],
  ctx: SchemaContext,
  site: SchemaSite,
  generated?: GeneratedProperty,
): ShapedSchema {
  const field = getFieldOptions(cls, property) ?? {};
  const own = metas.filter((m) => !m.each);
  const each = metas.filter((m) => m.each);
  if (metas.some((m) => needsRuntime(m))) ctx.runtimeValidated.add(cls);

  const typeFunction = transforms().findTypeMetadata(cls, property)?.typeFunction;
  const classHint = typeFunction ? (typeFunction() as Function) : undefined;
  const ownTypes = own.map((m) => constraintType(m.name ?? '')).filter(isDefined);
  const eachTypes = each.map((m) => constraintType(m.name ?? '')).filter(isDefined);
  const ownKeywords = keywordsOf(own);
  const typedKeywords = ownKeywords.map(([, k]) => k).find((k) => 'enum' in k || 'const' in k);
  const itemTypedKeywords = keywordsOf(each).map(([, k]) => k).find((k) => 'enum' in k || 'const' in k);

  const shaped = typedSchema(
    {
      explicit: field.type,
      reflected: getPropertyType(cls.prototype, property),
      classHint,
      constraintType: pickType(ownTypes),
      itemConstraintType: pickType(eachTypes),
      arrayConstraints: each.length > 0,
      typedKeywords,
      itemTypedKeywords,
      enum: field.enum,
      schema: field.schema,
      generated,
    },
    ctx,
    site,
  );

  let schema = documented(shaped.schema, generated);
  if (generated?.default !== undefined) schema = { ...schema, default: generated.default };
  for (const [name, keywords] of ownKeywords) schema = mergeSchema(schema, adaptKeywords(name, keywords, schema.type));
  if (each.length > 0 && typeof schema.items === 'object' && schema.items !== null) {
    let items = schema.items as JsonSchema;
    for (const [name, keywords] of keywordsOf(each)) items = mergeSchema(items, adaptKeywords(name, keywords, items.type));
    schema = { ...schema, items };
  }
  if (field.description !== undefined) schema = { ...schema, description: field.description };
  if (field.schema) ctx.authored = true;
  schema = mergeSchema(schema, field.schema);
  return { schema, convert: shaped.convert };
}

function keywordsOf(metas: ValidationMeta[]): [string, JsonSchema][] {
  const found: [string, JsonSchema][] = [];
  for (const m of metas) {
    const keywords = m.name ? constraintKeywords(m.name, m.constraints)?.keywords : undefined;
    if (keywords) found.push([m.name!, keywords]);
  }
  return found;
}

/** `integer` is narrower than `number` and wins; any other conflict keeps the first stated type. */
function pickType(types: ConstraintType[]): ConstraintType | undefined {
  if (types.includes('integer')) return 'integer';
  return types[0];
}

function isRequired(metas: ValidationMeta[], optional: boolean): boolean {
  if (metas.some((m) => m.type === IS_DEFINED)) return true;
  return !optional && !metas.some((m) => m.type === CONDITIONAL);
}

/** True when this rule is not expressed in the schema, so class-validator must still run at call time. */
function needsRuntime(meta: ValidationMeta): boolean {
  if (meta.type === NESTED || meta.type === IS_DEFINED || meta.type === WHITELIST) return false;
  if (meta.type === CONDITIONAL) return meta.name !== 'isOptional';
  if (!meta.name) return true;
  return constraintKeywords(meta.name, meta.constraints)?.complete !== true;
}

/**
 * Properties a DTO instance gets from its initialisers (`tags: string[] = []`): the only undecorated properties
 * visible at run time (a declaration alone compiles to nothing). Only for constructors without parameters.
 */
function initialisedProperties(cls: Function): string[] {
  if (cls.length > 0) return [];
  try {
    return Object.keys(new (cls as new () => object)());
  } catch {
    return [];
  }
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}
