import type { ElicitationForm } from '../context';
import { ErrorCode, McpReflectError } from '../errors';
import type { JsonSchema } from '../interfaces';
import type { GeneratedTypes } from '../metadata';
import { argsInputSchema } from '../schema';
import { ArgumentValidator, type SchemaCompiler } from '../validation';

// What the spec lets an elicitation form say per property (2025-11-25 client/elicitation#requested-schema).
const PROPERTY_KEYS = [
  'type', 'title', 'description', 'minLength', 'maxLength', 'format', 'minimum', 'maximum', 'default',
  'enum', 'enumNames', 'oneOf', 'items', 'minItems', 'maxItems',
];
const ITEM_KEYS = ['type', 'enum', 'anyOf'];
const FLAT = new Set(['string', 'number', 'integer', 'boolean', 'array']);

/**
 * Elicitation forms compiled from DTO classes, once per class: the restricted schema the spec allows (flat
 * primitives, enums, titled options, defaults from property initialisers), and a validator that turns the
 * user's answer into a DTO instance.
 */
export class ElicitationForms {
  private readonly forms = new Map<Function, ElicitationForm>();

  constructor(
    private readonly compiler: SchemaCompiler,
    /** The application's generated types: a DTO's generated properties shape its form as they shape a tool's input. */
    private readonly types: GeneratedTypes,
  ) {}

  form(dto: Function): ElicitationForm {
    let form = this.forms.get(dto);
    if (!form) {
      form = this.compile(dto);
      this.forms.set(dto, form);
    }
    return form;
  }

  private compile(dto: Function): ElicitationForm {
    const owner = `the elicitation form ${dto.name}`;
    const site = {
      owner,
      position: `class ${dto.name}`,
      explicitFix: `decorate the properties of ${dto.name} with class-validator type decorators or @Field({ type }).`,
    };
    const root = argsInputSchema(dto, site, this.types);
    const defaults = readDefaults(dto);
    const properties: Record<string, JsonSchema> = {};
    for (const [name, schema] of Object.entries((root.schema.properties ?? {}) as Record<string, JsonSchema>)) {
      if (!FLAT.has(String(schema.type))) {
        throw new McpReflectError(
          ErrorCode.InvalidElicitationForm,
          `Cannot ask for ${dto.name}: property '${name}' is ${schema.type ? `of type ${String(schema.type)}` : 'not a primitive'}, ` +
            `but elicitation forms hold flat primitives (string, number, integer, boolean, enums, multi-select arrays).\n` +
            `Fix: split nested data into several questions, or flatten ${dto.name}.`,
        );
      }
      const projected = pick(schema, PROPERTY_KEYS);
      if (typeof projected.items === 'object' && projected.items) projected.items = pick(projected.items as JsonSchema, ITEM_KEYS);
      if (defaults[name] !== undefined && projected.default === undefined) projected.default = defaults[name];
      properties[name] = projected;
    }
    const requestedSchema: JsonSchema = { type: 'object', properties };
    if (Array.isArray(root.schema.required) && root.schema.required.length > 0) requestedSchema.required = root.schema.required;
    const validator = new ArgumentValidator(this.compiler, root.schema, root.generated);
    const convert = root.convert ?? ((value: object) => value);
    return {
      requestedSchema,
      parse: (content) => {
        const outcome = validator.validate(content);
        return outcome.ok ? { ok: true, value: convert(outcome.value) as object } : outcome;
      },
    };
  }
}

/** Property initialisers (`name = 'John Doe'`) become the form's defaults. */
function readDefaults(dto: Function): Record<string, unknown> {
  try {
    return { ...(new (dto as new () => object)() as Record<string, unknown>) };
  } catch {
    return {};
  }
}

function pick(schema: JsonSchema, keys: string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => keys.includes(key)));
}
