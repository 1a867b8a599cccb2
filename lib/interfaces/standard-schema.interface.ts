/**
 * The Standard Schema interface (https://standardschema.dev, v1) as zod, valibot and arktype implement it: the
 * library is never imported, only the schema object's `~standard` property is called. The types are copied, as
 * the spec recommends, so no package is needed to name them.
 */
export interface StandardSchema<Input = unknown, Output = Input> {
  readonly '~standard': StandardSchemaProps<Input, Output>;
}

/** The `~standard` property of a Standard Schema. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  readonly version: 1;
  readonly vendor: string;
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  /** The Standard JSON Schema interface (zod 4.2+, arktype 2.1+, valibot through `@valibot/to-json-schema`'s `toStandardJsonSchema`). */
  readonly jsonSchema?: StandardJsonSchemaConverter;
}

/** What `~standard.validate()` answers: the parsed output, or the issues. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: readonly StandardIssue[] };

/** One issue of a Standard Schema: a message and the path of the value it is about. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[] | undefined;
}

/** The Standard JSON Schema converter (`~standard.jsonSchema`): the schema's input and output sides as JSON Schema. */
export interface StandardJsonSchemaConverter {
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** The type a Standard Schema parses to (`z.infer`, `v.InferOutput`, `type.infer`), read from its `~standard.types`. */
export type StandardOutput<S extends StandardSchema> = NonNullable<S['~standard']['types']>['output'];
