import type { GeneratedType, JsonSchema, ParamOptions, TypeHint } from '../interfaces';
import type { GeneratedTypes } from '../metadata';
import { dtoSchema } from './dto-schema';
import { withParamHeader } from './param-header';
import { SchemaContext } from './schema-context';
import type { SchemaSite } from './schema.messages';
import { documented, mergeSchema, type ShapedSchema } from './shaped-schema';
import { refSchema, typedSchema } from './type-schema';

/** `@Param()` options once a Standard Schema given as `schema` has been replaced by its JSON Schema (input side). */
export type JsonParamOptions = Omit<ParamOptions, 'schema'> & { readonly schema?: JsonSchema };

/** One named argument, ready to become a property of the input schema. */
export interface ParamSchemaInput {
  readonly name: string;
  readonly reflected: unknown;
  readonly options: JsonParamOptions;
  readonly site: SchemaSite;
  /** The type `mcp-reflect generate` read from the source, when its metadata is loaded. */
  readonly generated?: GeneratedType;
}

/** A root schema with the converters of its properties and the DTOs class-validator must still check. */
export interface RootSchema {
  readonly schema: JsonSchema;
  readonly convert: ShapedSchema['convert'];
  readonly properties: ReadonlyMap<string, ShapedSchema>;
  readonly runtimeValidated: ReadonlySet<Function>;
  /** Built by the library alone (no user-written JSON Schema in it), so valid by construction. */
  readonly generated: boolean;
  /** DTO properties (`Class.property`) initialised in the class but without any decorator: left out of the schema. */
  readonly undecorated: ReadonlySet<string>;
}

/**
 * The input schema for named parameters: `{ type: 'object', properties, required, additionalProperties: false }`.
 * `types`: the generated types of the application (DTO properties, classes named by generated parameters).
 */
export function paramsInputSchema(params: readonly ParamSchemaInput[], types: GeneratedTypes): RootSchema {
  const ctx = new SchemaContext(dtoSchema, types);
  const properties: Record<string, JsonSchema> = {};
  const shapedProperties = new Map<string, ShapedSchema>();
  const required: string[] = [];
  // SEP-2243 headers declared so far (lower-cased), to refuse two that differ only in case.
  const headers = new Map<string, string>();
  for (const { name, reflected, options, site, generated } of params) {
    const shaped = typedSchema(
      { explicit: options.type, reflected, enum: options.enum, schema: options.schema, generated },
      ctx,
      site,
    );
    let schema = documented(shaped.schema, generated);
    if (options.description !== undefined) schema = { ...schema, description: options.description };
    // `null` is a default like any other (so no `??` here).
    const initial = options.default !== undefined ? options.default : generated?.default;
    if (initial !== undefined) schema = { ...schema, default: jsonValue(initial) };
    if (options.schema) ctx.authored = true;
    schema = mergeSchema(schema, options.schema);
    if (options.header !== undefined) schema = withParamHeader(schema, options.header, site, headers);
    properties[name] = schema;
    shapedProperties.set(name, { schema, convert: shaped.convert });
    const optional = options.optional ?? generated?.optional ?? false;
    if (!optional && schema.default === undefined) required.push(name);
  }
  const schema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) schema.required = required;
  schema.additionalProperties = false;
  return {
    schema: withDefs(schema, ctx),
    convert: undefined,
    properties: shapedProperties,
    runtimeValidated: ctx.runtimeValidated,
    generated: !ctx.authored,
    undecorated: ctx.undecorated,
  };
}

/** The input schema for `@Args()`: the DTO's own object schema, its properties the top-level arguments. */
export function argsInputSchema(cls: Function, site: SchemaSite, types: GeneratedTypes): RootSchema {
  const ctx = new SchemaContext(dtoSchema, types);
  const shaped = refSchema(cls, ctx, site);
  // A recursive root DTO is a $ref to itself: inline its definition so the root is an object schema.
  const root = '$ref' in shaped.schema ? { ...ctx.defs[ctx.defName(cls)] } : shaped.schema;
  const props = (root.properties ?? {}) as Record<string, JsonSchema>;
  const properties = new Map(Object.entries(props).map(([k, s]) => [k, { schema: s } as ShapedSchema]));
  return {
    schema: withDefs(root, ctx),
    convert: shaped.convert,
    properties,
    runtimeValidated: ctx.runtimeValidated,
    generated: !ctx.authored,
    undecorated: ctx.undecorated,
  };
}

/** An output schema: DTO classes as they are; primitives and arrays wrapped as `{ result }` (the spec needs an object). */
export function outputSchema(hint: TypeHint, site: SchemaSite, types: GeneratedTypes): { schema: JsonSchema; wrapped: boolean; generated: boolean } {
  const ctx = new SchemaContext(dtoSchema, types);
  const shaped = typedSchema({ explicit: hint }, ctx, site);
  const isDto = typeof hint === 'function' && ![String, Number, Boolean, Date].includes(hint as never);
  if (isDto) {
    const root = '$ref' in shaped.schema ? { ...ctx.defs[ctx.defName(hint as Function)] } : shaped.schema;
    return { schema: withDefs(root, ctx), wrapped: false, generated: !ctx.authored };
  }
  const wrapped: JsonSchema = {
    type: 'object',
    properties: { result: shaped.schema },
    required: ['result'],
    additionalProperties: false,
  };
  return { schema: withDefs(wrapped, ctx), wrapped: true, generated: !ctx.authored };
}

/** The JSON form of a value (Dates as ISO strings, class instances as plain objects), as a client would send it. */
export function jsonValue(value: unknown): unknown {
  return value === null || typeof value !== 'object' ? value : JSON.parse(JSON.stringify(value));
}

function withDefs(schema: JsonSchema, ctx: SchemaContext): JsonSchema {
  return ctx.hasDefs() ? { ...schema, $defs: { ...ctx.defs } } : schema;
}
