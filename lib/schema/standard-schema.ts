import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { JsonSchema, StandardSchema } from '../interfaces';

/**
 * Whether `value` is a Standard Schema (zod, valibot, arktype, …): an object or function with a `~standard`
 * property of version 1 whose `validate` is a function. A plain JSON Schema has no such property.
 */
export function isStandardSchema(value: unknown): value is StandardSchema {
  if ((typeof value !== 'object' && typeof value !== 'function') || value === null) return false;
  const props = (value as Partial<StandardSchema>)['~standard'];
  return typeof props === 'object' && props !== null && props.version === 1 && typeof props.validate === 'function';
}

/** Where a Standard Schema is given, for messages: `tool 'forecast' (Weather.forecast)`, `@Tool({ parameters })`. */
export interface StandardSite {
  readonly owner: string;
  readonly position: string;
}

/** The adapter each known library needs when its schemas do not implement the Standard JSON Schema interface. */
const ADAPTERS: Readonly<Record<string, string>> = {
  valibot: "wrap the schema with toStandardJsonSchema() from '@valibot/to-json-schema' (npm install @valibot/to-json-schema)",
  zod: 'upgrade zod to 4.2 or later, whose schemas implement ~standard.jsonSchema',
  arktype: 'upgrade arktype to 2.1 or later, whose types implement ~standard.jsonSchema',
};

/**
 * The JSON Schema 2020-12 of one side of a Standard Schema, through its Standard JSON Schema interface
 * (`~standard.jsonSchema.input()` / `.output()`): the input side is what clients send (defaults shown, optional
 * fields not required), the output side what the method returns. Built once, at bootstrap; a schema without the
 * interface, or one whose library cannot convert it, fails the bootstrap naming the fix.
 */
export function standardJsonSchema(schema: StandardSchema, side: 'input' | 'output', site: StandardSite): JsonSchema {
  const props = schema['~standard'];
  const vendor = String(props.vendor);
  const converter = props.jsonSchema;
  if (typeof converter?.[side] !== 'function') {
    const fix = ADAPTERS[vendor] ?? 'give a schema whose library implements the Standard JSON Schema interface (~standard.jsonSchema), or a plain JSON Schema';
    throw new BootstrapError(
      BootstrapErrorCode.InvalidSchema,
      `Cannot build ${site.owner}: the ${vendor} schema of ${site.position} cannot be described as JSON Schema: it does not implement the Standard JSON Schema interface (~standard.jsonSchema).\n` +
        `Fix: ${fix}.`,
    );
  }
  let converted: Record<string, unknown>;
  try {
    converted = converter[side]({ target: 'draft-2020-12' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new BootstrapError(
      BootstrapErrorCode.InvalidSchema,
      `Cannot build ${site.owner}: the ${vendor} schema of ${site.position} cannot be converted to JSON Schema: ${reason}\n` +
        `Fix: use types JSON Schema can express (a string with a format for a date, a number for a bigint; a transform only where its input is described, not in an output schema), or give a plain JSON Schema.`,
      { cause: error },
    );
  }
  // `$schema` names the dialect the tool's schema already has (2020-12); MCP clients need it nowhere inside.
  const { $schema: _dialect, ...rest } = converted;
  return rest;
}
