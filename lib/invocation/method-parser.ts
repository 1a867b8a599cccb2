import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { GeneratedParam, GeneratedType, ParamOptions, StandardSchema } from '../interfaces';
import { getParamMetadata, getParamTypes, type GeneratedTypes, type ParamMetadata } from '../metadata';
import { isStandardSchema, standardJsonSchema, statesType, type JsonParamOptions } from '../schema';
import { generatedParamTypes, generatedSignature } from './generated-signature';
import { literalValue, readParameters, type SourceParameter } from './parameter-names';
import type { ProvidedMethod } from './provided';
import {
  argsMixedWithParamMessage,
  decoratorMetadataMissingMessage,
  duplicateArgsMessage,
  duplicateParamNameMessage,
  paramNameUnreadableMessage,
  restParameterMessage,
  undecoratedParameterMessage,
} from './method.messages';

/** One parameter of a tool method, with its name resolved and its reflected type. */
export type ParsedParameter =
  | {
      readonly kind: 'param';
      readonly index: number;
      readonly name: string;
      /**
       * Where the name comes from: the decorator (`@Param('city')`), the generated file (the name as written in the
       * sources), or the compiled code, where a bundler or minifier may have renamed it.
       */
      readonly nameFrom: 'decorator' | 'generated' | 'compiled';
      readonly options: JsonParamOptions;
      /** `@Param({ schema })` given a Standard Schema: its library checks and parses the argument (its JSON Schema is in `options.schema`). */
      readonly standard?: StandardSchema;
      readonly reflected: unknown;
      /** The type `mcp-reflect generate` read from the source, when its metadata is loaded. */
      readonly generated?: GeneratedType;
      readonly pipes: readonly unknown[];
    }
  | { readonly kind: 'args'; readonly index: number; readonly reflected: unknown; readonly generated?: GeneratedType; readonly pipes: readonly unknown[] }
  | { readonly kind: 'ctx'; readonly index: number }
  | {
      readonly kind: 'custom';
      readonly index: number;
      readonly factory: (data: unknown, context: never) => unknown;
      readonly data: unknown;
      readonly reflected: unknown;
      readonly pipes: readonly unknown[];
    };

/**
 * Parses a component method once (tool, resource, template, prompt, completer; FastMCP's ParsedFunction, the
 * decorator way): every parameter must be
 * decorated, names are read from the source when not given, and every shape MCP cannot carry is refused
 * here with a message that names the parameter and the fix.
 */
export function parseMethod(
  target: Function,
  method: string,
  owner: string,
  types: GeneratedTypes,
  implicit: readonly ParamMetadata[] = [],
  typesNeeded = true,
): ParsedParameter[] {
  const fn = target.prototype[method] as Function;
  const readable = readParameters(fn);
  const declaredTypes = getParamTypes(target.prototype, method);
  const generated = generatedSignature(types, target, method, owner, readable, declaredTypes);
  // A schema given whole (`parameters`, `inputSchema`) needs no parameter types: a bundle without decorator metadata serves it.
  const reflected = declaredTypes ?? generatedParamTypes(types, generated) ?? (typesNeeded ? undefined : []);
  const signature = { own: getParamMetadata(target, method), source: readable ?? [], reflected, generated, length: fn.length };
  return parseSignature(signature, owner, implicit, () => decoratorMetadataMissingMessage(owner, target.name, method));
}

/**
 * Parses a provider's component (lib/invocation/provided.ts) as a decorated method is parsed: its parameters
 * are given as the decorators would have written them, with their types, so the same rules and messages apply.
 */
export function parseProvided(provided: ProvidedMethod, owner: string, implicit: readonly ParamMetadata[] = []): ParsedParameter[] {
  const signature = { own: provided.params, source: [], reflected: provided.types, generated: undefined, length: provided.types.length };
  return parseSignature(signature, owner, implicit, () => `Cannot build ${owner}: its parameters have no types.`);
}

/** What a method's parameters are read from: its decorators' entries, its source text, its reflected and generated types. */
interface Signature {
  readonly own: readonly (ParamMetadata | undefined)[];
  readonly source: readonly SourceParameter[];
  readonly reflected: readonly unknown[] | undefined;
  readonly generated: ReturnType<typeof generatedSignature>;
  readonly length: number;
}

function parseSignature(signature: Signature, owner: string, implicit: readonly ParamMetadata[], untyped: () => string): ParsedParameter[] {
  const { own, source, reflected, generated } = signature;
  const declared = Math.max(signature.length, source.length, reflected?.length ?? 0);
  // Positions without a decorator take the kind's implicit binding (completers: the typed value, then the context).
  const decorated: readonly (ParamMetadata | undefined)[] =
    implicit.length === 0 ? own : [...implicit.slice(0, declared).map((entry, i) => own[i] ?? entry), ...own.slice(implicit.length)];
  const count = Math.max(declared, decorated.length);
  if (count > 0 && reflected === undefined) {
    throw new BootstrapError(BootstrapErrorCode.DecoratorMetadataMissing, untyped());
  }

  const parsed: ParsedParameter[] = [];
  for (let index = 0; index < count; index++) {
    const meta = decorated[index];
    const written: SourceParameter | undefined = source[index];
    if (written?.kind === 'rest') {
      throw new BootstrapError(BootstrapErrorCode.RestParameter, restParameterMessage(owner, index, written.name));
    }
    const typed = generated?.params.find((p) => p.index === index);
    if (!meta) {
      const name = generatedName(typed) ?? (written?.kind === 'name' ? written.name : undefined);
      throw new BootstrapError(BootstrapErrorCode.UndecoratedParameter, undecoratedParameterMessage(owner, index, name));
    }
    const type = reflected?.[index];
    if (meta.kind === 'ctx') parsed.push({ kind: 'ctx', index });
    else if (meta.kind === 'args') parsed.push({ kind: 'args', index, reflected: type, ...(typed ? { generated: typed } : {}), pipes: meta.pipes ?? [] });
    else if (meta.kind === 'custom') {
      parsed.push({ kind: 'custom', index, factory: meta.factory, data: meta.data, reflected: type, pipes: meta.pipes ?? [] });
    }
    else {
      // The decorator's name, else the file's (as written in the sources), else the compiled code's (a bundler may rename it).
      const fromFile = generatedName(typed);
      const name = meta.name ?? fromFile ?? (written?.kind === 'name' ? written.name : undefined);
      const nameFrom = meta.name !== undefined ? 'decorator' : fromFile !== undefined ? 'generated' : 'compiled';
      if (!name) {
        throw new BootstrapError(BootstrapErrorCode.ParamNameUnreadable, paramNameUnreadableMessage(owner, index));
      }
      // The generated entry read the initialiser with the compiler (escapes, constants, enum members): it says
      // optional and default itself; the compiled text is read only without it.
      const standard = isStandardSchema(meta.options.schema) ? meta.options.schema : undefined;
      const own = standard ? standardOptions(meta.options, standard, owner, index, name) : (meta.options as JsonParamOptions);
      const options = typed ? own : withInitialiser(own, written);
      const reflectedType = typed ? type : defaultType(type, own, written);
      parsed.push({
        kind: 'param', index, name, nameFrom, options, reflected: reflectedType, ...(standard ? { standard } : {}), ...(typed ? { generated: typed } : {}), pipes: meta.pipes ?? [],
      });
    }
  }
  checkBindings(parsed, owner);
  return parsed;
}

/** The name a parameter has in the generated file: the one written in the sources (a destructured one has none). */
function generatedName(typed: GeneratedParam | undefined): string | undefined {
  return typed && typed.name !== '{}' ? typed.name : undefined;
}

/**
 * A parameter written with a default (`times = 2`) is optional, with that default when it is a literal. Options
 * win key by key: an explicit `default` is the default, `optional: false` keeps the argument required (and
 * advertises no default), `optional: true` with a literal initialiser still advertises it. (A `?` leaves no
 * trace in the compiled method: declare it with `@Param({ optional: true })`, or use the generator.)
 */
function withInitialiser<O extends { optional?: boolean; default?: unknown } | undefined>(options: O, written: SourceParameter | undefined): O {
  if (written?.kind !== 'name' || written.initialiser === undefined) return options;
  if (options?.default !== undefined || options?.optional === false) return options;
  const literal = literalValue(written.initialiser);
  return { ...options, optional: true, ...(literal ? { default: literal.value } : {}) } as O;
}

/**
 * `@Param({ schema })` given a Standard Schema: its JSON Schema (input side) is the partial schema merged over what
 * is inferred, and the argument is optional when the library accepts its absence (`.optional()`, `.default()`),
 * unless the options say otherwise.
 */
function standardOptions(options: ParamOptions, standard: StandardSchema, owner: string, index: number, name: string): JsonParamOptions {
  const schema = standardJsonSchema(standard, 'input', { owner, position: `parameter #${index} '${name}' (@Param({ schema }))` });
  const absent = standard['~standard'].validate(undefined);
  const acceptsAbsent = typeof (absent as PromiseLike<unknown>).then === 'function' ? (Promise.resolve(absent).catch(() => undefined), false) : !('issues' in absent && absent.issues);
  return { ...options, schema, ...(options.optional === undefined && acceptsAbsent ? { optional: true } : {}) };
}

const LITERAL_TYPES: Readonly<Record<string, Function>> = { number: Number, string: String, boolean: Boolean };

/**
 * The type of an un-annotated parameter with a literal default (`days = 3`, `name = 'World'`, `verbose = false`):
 * tsc reflects it as `Object` and swc as nothing, though the compiler inferred the default's type (and
 * `mcp-reflect generate` reads that type): Number, String or Boolean. A type stated in the options (`type`,
 * `enum`, a `schema` with a type) wins, any other reflected type is kept, and a parameter reflected as `Object`
 * whose default is no such literal (`days = later()`) is still refused by the schema builder.
 */
function defaultType(reflected: unknown, options: JsonParamOptions, written: SourceParameter | undefined): unknown {
  if (reflected !== Object && reflected !== undefined) return reflected;
  if (written?.kind !== 'name' || written.initialiser === undefined) return reflected;
  if (options.type !== undefined || options.enum !== undefined || statesType(options.schema)) return reflected;
  const literal = literalValue(written.initialiser);
  return (literal && LITERAL_TYPES[typeof literal.value]) ?? reflected;
}

function checkBindings(parsed: ParsedParameter[], owner: string): void {
  const args = parsed.filter((p) => p.kind === 'args');
  const params = parsed.filter((p) => p.kind === 'param');
  if (args.length > 1) {
    throw new BootstrapError(BootstrapErrorCode.DuplicateArgs, duplicateArgsMessage(owner, args[0].index, args[1].index));
  }
  if (args.length === 1 && params.length > 0) {
    throw new BootstrapError(
      BootstrapErrorCode.ArgsMixedWithParam,
      argsMixedWithParamMessage(owner, args[0].index, params[0].index),
    );
  }
  const seen = new Map<string, number>();
  for (const p of params) {
    const first = seen.get(p.name);
    if (first !== undefined) {
      throw new BootstrapError(
        BootstrapErrorCode.DuplicateParamName,
        duplicateParamNameMessage(owner, p.name, first, p.index),
      );
    }
    seen.set(p.name, p.index);
  }
}
