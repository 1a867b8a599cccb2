import type { Context } from '../context';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { JsonSchema, StandardSchema } from '../interfaces';
import { argsInputSchema, generatedDates, jsonValue, paramsInputSchema, type Converter, type RootSchema, type SchemaSite } from '../schema';
import { ArgumentValidator, formatIssues, StandardParamsValidator, StandardValidator, type InputValidator, type SchemaCompiler } from '../validation';
import type { GeneratedTypes, ParamMetadata } from '../metadata';
import { methodInvoker, providedInvoker, type Invoker } from './invoker';
import type { MethodHost } from './method-host';
import { parseMethod, parseProvided, type ParsedParameter } from './method-parser';
import { looksBundlerRenamed } from './parameter-names';
import { argsNotClassMessage, invalidDefaultMessage, invalidSchemaMessage, runtimeSchemaMessage } from './method.messages';

/**
 * A decorated method (tool, resource template, prompt) compiled once: its input schema, the validator built
 * from that same schema, and the binder that turns validated arguments into the method's argument list.
 */
export interface CompiledMethod {
  readonly className: string;
  readonly methodName: string;
  readonly target: Function;
  /** What the pipeline runs once the arguments are bound: the method, on its instance (lib/invocation/invoker.ts). */
  readonly invoker: Invoker;
  readonly inputSchema: JsonSchema;
  readonly parameters: readonly ParsedParameter[];
  readonly validator: InputValidator;
  /** Builds the method's argument list from validated arguments, the Context and (for custom decorators) the execution context. */
  readonly bind: (validated: Record<string, unknown>, context: Context | undefined, execution?: unknown) => unknown[];
  /** A parameter takes the Context (`@Ctx()`), or the invoker runs per request. */
  readonly needsContext: boolean;
  /** A parameter comes from a `createParamDecorator()` factory (it reads the execution context). */
  readonly hasCustomParameters: boolean;
  /** DTO instances in the argument list that class-validator must still check (rules JSON Schema cannot say). */
  readonly runtimeChecked: readonly number[];
  /** `Class.property` of initialised DTO properties without decorators: not in the schema (a bootstrap warning). */
  readonly undecoratedProperties: readonly string[];
  /**
   * `@Param()` parameters named from the compiled code with a name a bundler gives (`url2`), and no generated entry
   * to name them: a bootstrap warning (`warnings.renamedParameters`).
   */
  readonly renamedParameters: readonly { readonly index: number; readonly name: string }[];
  /** Transformed arguments (renamed, hidden, defaulted): what the client sent, as the method declares it, before validation. */
  readonly mapArguments?: ArgumentMapper;
}

/**
 * The arguments of a call from the names clients see to the ones the method declares, with hidden ones filled
 * (docs/composition.md#transforms): compiled at bootstrap, run before the guards and the validation.
 */
export interface ArgumentMapper {
  /** Some hidden argument is a function of the Context. */
  readonly needsContext: boolean;
  /** Synchronous unless a hidden argument's function returns a promise. */
  map(args: Record<string, unknown>, context: Context | undefined): Record<string, unknown> | Promise<Record<string, unknown>>;
  /** A validation issue (`city: is required`) with the names the client sees (`location: is required`). */
  advertised(issue: string): string;
}

/**
 * A tool's input given whole (`@Tool({ inputSchema })`, `@Tool({ parameters })`): the JSON Schema clients are
 * sent, and, for a Standard Schema, the schema whose library validates the call and parses the arguments.
 */
export interface RawInput {
  readonly schema: JsonSchema;
  readonly standard?: StandardSchema;
}

/** `@Tool({ parameters })`: an undecorated first parameter receives the parsed arguments, as with `@Args()` (mcp-nest's way). */
export const IMPLICIT_ARGS: readonly ParamMetadata[] = [{ kind: 'args', index: 0 }];

/** Compiles `host`'s method `method`; `owner` names it in messages ("tool 'add' (Calc.add)"). */
export function compileMethod(
  host: MethodHost,
  method: string,
  owner: string,
  compiler: SchemaCompiler,
  raw?: RawInput,
  implicit?: readonly ParamMetadata[],
): CompiledMethod {
  const rawInputSchema = raw?.schema;
  const { target } = host;
  const origin = host.provided?.origin;
  const schemas = schemaCompilerOf(host, compiler);
  const provided = host.provided?.get(method);
  const parsed = provided ? parseProvided(provided, owner, implicit) : parseMethod(target, method, owner, host.types, implicit, raw === undefined);
  const input = rawInputSchema ? rawRoot(rawInputSchema) : inputRoot(parsed, owner, host.types);
  // A Standard Schema's library validates the call; its JSON Schema is still compiled, so an invalid one fails the bootstrap.
  const validator: InputValidator = raw?.standard
    ? (compileOrExplain(owner, 'input schema', () => schemas.check(input.schema, 'input'), origin), new StandardValidator(raw.standard))
    : withStandardParams(compileOrExplain(owner, 'input schema', () => new ArgumentValidator(schemas, input.schema, input.generated), origin), parsed);
  if (!rawInputSchema) checkDefaults(parsed, input, schemas, owner);
  const runtime = input.runtimeValidated.size > 0 && !rawInputSchema;
  const invoker = provided ? providedInvoker(target, provided.handler) : methodInvoker(target, method, host.instance, host.resolve);
  return {
    className: target.name,
    methodName: method,
    target,
    invoker,
    inputSchema: input.schema,
    parameters: parsed,
    validator,
    bind: compileBinder(parsed, input, rawInputSchema !== undefined),
    needsContext: parsed.some((p) => p.kind === 'ctx') || invoker.perRequest,
    hasCustomParameters: parsed.some((p) => p.kind === 'custom'),
    undecoratedProperties: [...input.undecorated],
    renamedParameters: parsed.flatMap((p) => (p.kind === 'param' && p.nameFrom === 'compiled' && looksBundlerRenamed(p.name) ? [{ index: p.index, name: p.name }] : [])),
    runtimeChecked: runtime ? parsed.filter((p) => p.kind === 'param' || p.kind === 'args').map((p) => p.index) : [],
  };
}

/** `@Param({ schema })`s given a Standard Schema: their libraries check and parse their arguments after the JSON Schema. */
function withStandardParams(validator: InputValidator, parsed: readonly ParsedParameter[]): InputValidator {
  const params = parsed.flatMap((p) => (p.kind === 'param' && p.standard ? [{ name: p.name, schema: p.standard }] : []));
  return params.length > 0 ? new StandardParamsValidator(validator, params) : validator;
}

function inputRoot(parsed: ParsedParameter[], owner: string, types: GeneratedTypes): RootSchema {
  const args = parsed.find((p) => p.kind === 'args');
  if (args) {
    const cls = args.reflected;
    const notClass = typeof cls !== 'function' || [Object, String, Number, Boolean, Array, Date, Promise].includes(cls as never);
    // An interface or type alias has no class to build, but the generator described its object schema.
    if (notClass && args.generated?.schema.type === 'object') return generatedRoot(args.generated.schema);
    if (notClass) {
      throw new BootstrapError(BootstrapErrorCode.ArgsNotClass, argsNotClassMessage(owner, args.index, cls));
    }
    return argsInputSchema(cls, site(owner, `parameter #${args.index} (@Args())`, argsFix), types);
  }
  return paramsInputSchema(
    parsed
      .filter((p) => p.kind === 'param')
      .map((p) => ({
        name: p.name,
        reflected: p.reflected,
        options: p.options,
        generated: p.generated,
        site: site(
          owner,
          `parameter #${p.index} '${p.name}'`,
          `state the type with @Param('${p.name}', { type: ... }) (e.g. [String], [ItemDto], 'integer', a DTO class), ` +
            `the allowed values with { enum: MyEnum }, or a JSON Schema with { schema: { ... } }.`,
          `state the item type with @Param('${p.name}', { type: [String] }) (or [Number], [ItemDto], …), ` +
            `the allowed values with { enum: MyEnum }, or a JSON Schema with { schema: { type: 'array', items: { ... } } }.`,
        ),
      })),
    types,
  );
}

const argsFix = 'type the @Args() parameter with a DTO class whose properties carry class-validator decorators.';

function generatedRoot(schema: JsonSchema): RootSchema {
  const properties = Object.entries((schema.properties ?? {}) as Record<string, JsonSchema>);
  return {
    schema,
    // Dates inside (a `Date` property of the interface) arrive as Dates, as in a DTO.
    convert: generatedDates(schema),
    properties: new Map(properties.map(([key, value]) => [key, { schema: value }])),
    runtimeValidated: new Set(),
    generated: true,
    undecorated: new Set(),
  };
}

function rawRoot(schema: JsonSchema): RootSchema {
  return { schema, convert: undefined, properties: new Map(), runtimeValidated: new Set(), generated: false, undecorated: new Set() };
}

/** Precomputes, per parameter position, how to produce its value, so binding is one pass over an array. */
function compileBinder(
  parsed: ParsedParameter[],
  input: RootSchema,
  raw: boolean,
): (validated: Record<string, unknown>, context: Context | undefined, execution?: unknown) => unknown[] {
  type Slot = (validated: Record<string, unknown>, context: Context | undefined, execution?: unknown) => unknown;
  const slots: Slot[] = parsed.map((p): Slot => {
    if (p.kind === 'ctx') return (_v, context) => context;
    if (p.kind === 'custom') {
      const { factory, data } = p;
      return (_v, _c, execution) => factory(data, execution as never);
    }
    if (p.kind === 'args') {
      const convert = raw ? undefined : input.convert;
      return convert ? (v) => convert(v) : (v) => v;
    }
    const key = p.name;
    // A Standard Schema's library already gave the parsed value, its own default applied.
    if (p.standard) return (v) => v[key];
    const convert: Converter | undefined = raw ? undefined : input.properties.get(key)?.convert;
    const advertised = raw ? jsonValue(p.options.default) : input.properties.get(key)?.schema.default;
    if (advertised === undefined) return convert ? (v) => (v[key] === undefined ? undefined : convert(v[key])) : (v) => v[key];
    // An absent argument gets the advertised default as if the client had sent it: a fresh, converted value per call.
    const fallback = advertised;
    const fresh = typeof fallback === 'object' && fallback !== null ? () => structuredClone(fallback) : () => fallback;
    const apply = convert ?? ((value: unknown) => value);
    return (v) => apply(v[key] === undefined ? fresh() : v[key]);
  });
  const count = slots.length;
  return (validated, context, execution) => {
    const values = new Array<unknown>(count);
    for (let i = 0; i < count; i++) values[i] = slots[i](validated, context, execution);
    return values;
  };
}

/** A default must be a value the schema accepts, or the advertised schema would contradict the server. */
function checkDefaults(parsed: ParsedParameter[], input: RootSchema, compiler: SchemaCompiler, owner: string): void {
  for (const p of parsed) {
    if (p.kind !== 'param') continue;
    const property = input.properties.get(p.name)!.schema;
    if (property.default === undefined) continue;
    const schema = input.schema.$defs ? { ...property, $defs: input.schema.$defs } : property;
    const check = compiler.valueChecker(schema);
    if (check(property.default)) continue;
    const issues = formatIssues(check.errors ?? [], 'property').map((i) => i.replace(/^(must|is) /, 'it $1 '));
    throw new BootstrapError(
      BootstrapErrorCode.InvalidDefault,
      invalidDefaultMessage(owner, p.index, p.name, JSON.stringify(property.default), issues),
    );
  }
}

function site(owner: string, position: string, explicitFix: string, arrayFix?: string): SchemaSite {
  return { owner, position, explicitFix, arrayFix };
}

/**
 * Runs `compile`; its error becomes the bootstrap error naming `owner`'s schema — a decorator's, or, for a
 * provider's component whose schemas are known only at run time, the source `origin` names.
 */
export function compileOrExplain<T>(owner: string, which: string, compile: () => T, origin?: string): T {
  try {
    return compile();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const message = origin !== undefined ? runtimeSchemaMessage(owner, which, reason, origin) : invalidSchemaMessage(owner, which, reason);
    throw new BootstrapError(BootstrapErrorCode.InvalidSchema, message, { cause: error });
  }
}

/**
 * The compiler for the schemas of `host`'s components: the application's, or for a provider whose schemas are
 * known only at run time (a proxied server's catalogue), that source's: it interprets where code cannot be
 * generated, and keeps its validators apart from the application's, bounded.
 */
export function schemaCompilerOf(host: MethodHost, compiler: SchemaCompiler): SchemaCompiler {
  const origin = host.provided?.origin;
  return origin !== undefined ? compiler.forRuntimeSchemas(origin) : compiler;
}

