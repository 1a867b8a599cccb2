import type Ajv from 'ajv';
import type { JsonSchema } from '../interfaces';
import type { IntegerCoercion } from './coercion';
import { interpretedValidator } from './interpreted';
import { formatIssues } from './issue-format';
import { codeGenerationAllowed, isCodeGenerationRefused, validatorKey, type ValidatorSource } from './precompiled';
import { ApplicationValidators, SourceValidators, type ValidatorStore } from './validator-store';

/**
 * ajv loads when the first validator is compiled (or a schema checked against a dialect's meta-schema): a
 * server started with precompiled validators (`mcp-reflect validators`) never loads it.
 */
let ajv: { Ajv: typeof import('ajv').default; Ajv2020: typeof import('ajv/dist/2020').default; addFormats: typeof import('ajv-formats').default } | undefined;
const engines = () =>
  (ajv ??= {
    Ajv: (require('ajv') as typeof import('ajv')).default,
    Ajv2020: (require('ajv/dist/2020') as typeof import('ajv/dist/2020')).default,
    addFormats: (require('ajv-formats') as typeof import('ajv-formats')).default,
  });

export type ValidateFunction = ((data: unknown) => boolean) & { errors?: AjvIssue[] | null };

export interface AjvIssue {
  readonly keyword: string;
  readonly instancePath: string;
  readonly params: Record<string, any>;
  readonly message?: string;
}

/** Input schemas may drop unknown keys (lenient mode); outputs are only ever checked, never changed. */
export type SchemaUse = 'input' | 'output';

/**
 * The application's JSON Schema compilers, one per (dialect, use, reporting) and created on first need.
 * Generated schemas are 2020-12; a raw schema that names draft-07 gets a draft-07 compiler.
 */
export class SchemaCompiler {
  /**
   * The application's validators: identical schemas (many tools share one shape) compile once, and are kept for
   * good. Shared by the compilers derived from this one.
   */
  private readonly application: ApplicationValidators;
  /** The validators of each source of runtime schemas (by origin), each bounded: shared by the derived compilers. */
  private readonly sources: Map<string, SourceValidators>;
  /** Where this compiler keeps what it makes: the application's store, or its origin's. */
  private readonly store: ValidatorStore;
  private canonical?: SchemaCompiler;
  private readonly runtimes = new Map<string, SchemaCompiler>();
  /** Validators compiled ahead of time, and who records what is compiled (the `validators` command). */
  private readonly source: ValidatorSource;

  /**
   * `integers`: how lenient coercion reads strings at `integer` positions (see IntegerCoercion). `origin`: the
   * schemas are known only at run time, from that source (see `forRuntimeSchemas`).
   */
  constructor(
    readonly lenient: boolean,
    readonly integers: IntegerCoercion = 'numeric',
    shared?: SchemaCompiler,
    source: ValidatorSource = {},
    readonly origin?: string,
  ) {
    this.application = shared?.application ?? new ApplicationValidators();
    this.sources = shared?.sources ?? new Map();
    this.source = shared?.source ?? source;
    if (origin === undefined) this.store = this.application;
    else {
      let store = this.sources.get(origin);
      if (!store) this.sources.set(origin, (store = new SourceValidators()));
      this.store = store;
    }
  }

  /** Whether the schemas are known only at run time: interpreted where code cannot be generated. */
  get interprets(): boolean {
    return this.origin !== undefined;
  }

  /** This compiler, sharing its engines and caches, coercing only canonical integers: for URI template variables. */
  withCanonicalIntegers(): SchemaCompiler {
    if (this.integers === 'canonical') return this;
    return (this.canonical ??= new SchemaCompiler(this.lenient, 'canonical', this, this.source, this.origin));
  }

  /**
   * This compiler for schemas known only at run time, from `origin` (a proxied server's, `the remote MCP server
   * 'ev' (…)`): where the runtime refuses code generation (Cloudflare Workers) and no validator was compiled ahead
   * of time for a schema, it is interpreted (@cfworker/json-schema) instead of refused — no validator made before
   * the remote was connected can cover what it lists later. What it compiles is kept apart from the application's,
   * bounded per origin (see SourceValidators): a remote that keeps changing its schemas never grows the process,
   * nor pushes out the application's own validators.
   */
  forRuntimeSchemas(origin = 'a source of runtime schemas'): SchemaCompiler {
    if (this.origin === origin) return this;
    let runtime = this.runtimes.get(origin);
    if (!runtime) this.runtimes.set(origin, (runtime = new SchemaCompiler(this.lenient, this.integers, this, this.source, origin)));
    return runtime;
  }

  /** Schema text held for `origin`'s validators now, in this compiler (for specs and diagnostics). */
  sourceBytes(origin: string): { kept: number; compiled: number } | undefined {
    const store = this.sources.get(origin);
    return store && { kept: store.bytes, compiled: store.engineBytes };
  }

  /**
   * The validator used on every call: stops at the first error. Throws on an invalid schema: a schema with
   * user-written parts is checked against its meta-schema first; a `generated` one (built by the library from
   * types and decorators alone) is valid by construction and skips that check, whose first use costs tens of
   * milliseconds of startup.
   */
  compile(schema: JsonSchema, use: SchemaUse = 'input', generated = false): ValidateFunction {
    const json = JSON.stringify(schema);
    if (!generated) this.checkOnce(schema, json, use);
    // Compiled by its first call (compileValidators: 'onFirstUse'): the schema was checked above all the same; what
    // only ajv's compilation finds (an unknown format) then fails that call, not the bootstrap.
    if (this.defers) return onFirstUse(() => this.cached(schema, json, use, false));
    return this.cached(schema, json, use, false);
  }

  /** Whether validators are compiled by their first call (compileValidators: 'onFirstUse'; not while recording them). */
  private get defers(): boolean {
    return this.source.compile === 'onFirstUse' && !this.source.record && !this.source.precompiled;
  }

  /**
   * What checks one value known at bootstrap (a parameter's default) against `schema`, naming every issue: the
   * reporting validator, or, when validators are compiled on first use, the schema interpreted (one value is
   * checked without compiling anything).
   */
  valueChecker(schema: JsonSchema): ValidateFunction {
    return this.defers ? interpret(schema, dialect(schema), true, false) : this.compileReporting(schema, 'output');
  }

  /**
   * Throws as `compile` does on an invalid schema, without compiling it: for a schema whose validator is
   * compiled on first use (`compile(schema, use, true)` then skips the check). While the `validators` command
   * records what an application compiles, it is compiled now, so that it is among the validators written.
   */
  check(schema: JsonSchema, use: SchemaUse = 'input'): void {
    const json = JSON.stringify(schema);
    this.checkOnce(schema, json, use);
    if (this.source.record) this.cached(schema, json, use, false);
  }

  private checkOnce(schema: JsonSchema, json: string, use: SchemaUse): void {
    if (this.store.isChecked(json) || (this.store !== this.application && this.application.isChecked(json))) return;
    this.checkSchema(schema, use);
    this.store.checked(json);
  }

  /** Throws "schema is invalid: …" (ajv's own words) when `schema` does not match its meta-schema. */
  private checkSchema(schema: JsonSchema, use: SchemaUse): void {
    const engine = () => this.engine(dialect(schema), use, false, '');
    if (schema.$schema !== undefined && schema.$schema !== META_2020) {
      if (codeGenerationAllowed()) engine().validateSchema(schema, true); // another dialect: ajv compiles that meta-schema
      else checkDraft07(schema); // which needs code generation: the meta-schema is interpreted instead
      return;
    }
    // The 2020-12 meta-schema validator ships precompiled (tools/generate-meta-validator.js).
    const meta = require('./meta-schema.generated') as ValidateFunction;
    if (meta(schema)) return;
    // ajv's words where it can run; formatted issues where an engine cannot be made (no code generation).
    throw new Error(`schema is invalid: ${codeGenerationAllowed() ? engine().errorsText(meta.errors as never) : formatIssues(meta.errors ?? [], 'property').join('; ')}`);
  }

  /** The validator that names every failed field; only failing calls use it. For schemas `compile` accepted. */
  compileReporting(schema: JsonSchema, use: SchemaUse = 'input'): ValidateFunction {
    return this.cached(schema, JSON.stringify(schema), use, true);
  }

  private cached(schema: JsonSchema, json: string, use: SchemaUse, allErrors: boolean): ValidateFunction {
    const key = `${use}:${allErrors}:${json}`;
    // A source's compiler may take the application's validator of the same schema; the application never takes a
    // source's (an interpreted one among them).
    const found = this.store.get(key) ?? (this.store !== this.application ? this.application.get(key) : undefined);
    if (found) return found;
    const validate = this.precompiledOrCompiled(schema, json, use, allErrors);
    this.store.set(key, validate);
    return validate;
  }

  private precompiledOrCompiled(schema: JsonSchema, json: string, use: SchemaUse, allErrors: boolean): ValidateFunction {
    const { precompiled, record } = this.source;
    const removeAdditional = use === 'input' && this.lenient;
    const version = dialect(schema);
    // Without precompiled validators and no one recording, no key is made: the usual start pays nothing for them.
    const key = precompiled || record ? validatorKey(version, use, allErrors, removeAdditional, json) : undefined;
    record?.({ key: key!, schema, dialect: version, use, allErrors, removeAdditional });
    const ready = key !== undefined ? precompiled?.validators[key] : undefined;
    if (ready) return ready as ValidateFunction;
    // A runtime schema where code cannot be generated is interpreted: ajv is not even loaded.
    if (this.interprets && !codeGenerationAllowed()) return interpret(schema, version, allErrors, removeAdditional);
    try {
      return this.engine(version, use, allErrors, json).compile(schema) as ValidateFunction;
    } catch (error) {
      if (!isCodeGenerationRefused(error)) throw error;
      if (this.interprets) return interpret(schema, version, allErrors, removeAdditional);
      throw new Error(
        `this runtime allows no code generation (Cloudflare Workers), so validators must be compiled ahead of time, and ${precompiled ? 'the validators given have none for this schema (they were made for other schemas)' : 'none were given'}.\n` +
          'Fix: run `npx mcp-reflect validators <entry> --out src/mcp-validators.js` (again, after each change of a schema) and pass its export: McpFactory.create(AppModule, { metadata, validators }).',
      );
    }
  }

  /** The engine for (dialect, use, reporting) of this compiler's store, about to compile the schema text `json`. */
  private engine(version: '2020' | '07', use: SchemaUse, allErrors: boolean, json: string): Ajv {
    return this.store.engine(`${version}:${use}:${allErrors}`, json, () => {
      const { Ajv, Ajv2020, addFormats } = engines();
      const Engine = version === '2020' ? Ajv2020 : Ajv;
      const engine = new Engine({
        allErrors,
        strict: false,
        removeAdditional: use === 'input' && this.lenient,
        useDefaults: false,
        validateFormats: true,
        addUsedSchema: false,
        validateSchema: false, // compile() checks the schemas that need it
      });
      addFormats(engine);
      return engine;
    });
  }
}

const META_2020 = 'https://json-schema.org/draft/2020-12/schema';

/** A validator compiled by its first call; its `errors` are those of the compiled one's last call. */
function onFirstUse(compile: () => ValidateFunction): ValidateFunction {
  let compiled: ValidateFunction | undefined;
  const validate: ValidateFunction = (data) => {
    compiled ??= compile();
    const valid = compiled(data);
    validate.errors = compiled.errors;
    return valid;
  };
  return validate;
}

function interpret(schema: JsonSchema, version: '2020' | '07', allErrors: boolean, removeAdditional: boolean): ValidateFunction {
  return interpretedValidator(schema, version, allErrors, removeAdditional);
}

let draft07: ValidateFunction | undefined;

/** The draft-07 meta-schema check where code cannot be generated: interpreted. */
function checkDraft07(schema: JsonSchema): void {
  draft07 ??= interpretedValidator(require('ajv/dist/refs/json-schema-draft-07.json') as JsonSchema, '07', true, false);
  if (!draft07(schema)) throw new Error(`schema is invalid: ${formatIssues(draft07.errors ?? [], 'property').join('; ')}`);
}

function dialect(schema: JsonSchema): '2020' | '07' {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  return /draft-0[4-7]/.test(declared) ? '07' : '2020';
}
