import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { JsonSchema } from '../interfaces';

export type ValidateFunction = ((data: unknown) => boolean) & { errors?: AjvIssue[] | null };

export interface AjvIssue {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, any>;
  readonly message?: string;
}

/**
 * The application's JSON Schema compilers. Generated schemas are 2020-12; a raw schema that names draft-07
 * gets a draft-07 compiler. `removeAdditional` drops unknown keys in lenient mode; strict mode rejects them.
 */
export class SchemaCompiler {
  private readonly fast: Record<'2020' | '07', Ajv>;
  private readonly reporting: Record<'2020' | '07', Ajv>;

  constructor(readonly lenient: boolean) {
    this.fast = { '2020': this.create(Ajv2020, false), '07': this.create(Ajv, false) };
    this.reporting = { '2020': this.create(Ajv2020, true), '07': this.create(Ajv, true) };
  }

  /** Compiles the validator used on every call (stops at the first error). Throws on an invalid schema. */
  compile(schema: JsonSchema): ValidateFunction {
    return this.fast[dialect(schema)].compile(schema) as ValidateFunction;
  }

  /** Compiles the validator that names every failed field; only failing calls use it. */
  compileReporting(schema: JsonSchema): ValidateFunction {
    return this.reporting[dialect(schema)].compile(schema) as ValidateFunction;
  }

  private create(Engine: typeof Ajv | typeof Ajv2020, allErrors: boolean): Ajv {
    const ajv = new Engine({
      allErrors,
      strict: false,
      removeAdditional: this.lenient ? true : false,
      useDefaults: false,
      validateFormats: true,
      addUsedSchema: false,
    });
    addFormats(ajv);
    return ajv;
  }
}

function dialect(schema: JsonSchema): '2020' | '07' {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? '07' : '2020';
}
