import type { JsonSchema } from '../interfaces';
import type { GeneratedTypes } from '../metadata';
import type { SchemaSite } from './schema.messages';
import type { Converter, ShapedSchema } from './shaped-schema';

/** Builds the schema of a DTO class; given to the context so type and DTO resolution can recurse. */
export type DtoSchemaBuilder = (cls: Function, ctx: SchemaContext, site: SchemaSite) => ShapedSchema;

/**
 * State of one root schema while it is built: the DTO classes on the current path (to detect recursion),
 * the `$defs` that recursive DTOs need, and the DTOs whose rules JSON Schema cannot express; `types` are the
 * generated types of the application it is built for.
 */
export class SchemaContext {
  readonly stack: Function[] = [];
  readonly recursive = new Set<Function>();
  readonly defs: Record<string, JsonSchema> = {};
  readonly runtimeValidated = new Set<Function>();
  /** `Class.property` of DTO properties that hold a value but carry no decorator (invisible to the schema). */
  readonly undecorated = new Set<string>();
  /** Set when a user-written JSON Schema (`schema` of @Param or @Field) is merged in: not valid by construction. */
  authored = false;
  /** Late-bound converters, so a recursive DTO's converter can call itself. */
  readonly converters = new Map<Function, { fn?: Converter }>();
  private readonly defNames = new Map<Function, string>();

  constructor(
    readonly dto: DtoSchemaBuilder,
    readonly types: GeneratedTypes,
  ) {}

  defName(cls: Function): string {
    let name = this.defNames.get(cls);
    if (!name) {
      const base = cls.name || 'Anonymous';
      const taken = new Set(this.defNames.values());
      name = base;
      for (let i = 2; taken.has(name); i++) name = `${base}_${i}`;
      this.defNames.set(cls, name);
    }
    return name;
  }

  ref(cls: Function): JsonSchema {
    return { $ref: `#/$defs/${this.defName(cls)}` };
  }

  hasDefs(): boolean {
    return Object.keys(this.defs).length > 0;
  }
}
