import { closestName } from '../catalogue';
import type { Context } from '../context';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { ArgTransform, JsonSchema } from '../interfaces';
import type { ArgumentMapper } from '../invocation';
import { formatIssues, type SchemaCompiler } from '../validation';

/** One layer of argument transforms, compiled: what it renames, hides and defaults, by the names it receives. */
interface Layer {
  /** Advertised name → the name the layer below knows. */
  readonly renames: ReadonlyMap<string, string>;
  /** Names a client may not send (hidden, or renamed away): dropped. */
  readonly blocked: ReadonlySet<string>;
  readonly hidden: readonly (readonly [string, ArgTransform['hide'] & object])[];
  readonly defaults: readonly (readonly [string, unknown])[];
}

/**
 * A tool's argument transforms (docs/composition.md#transforms), applied to its input schema at bootstrap:
 * the schema clients are shown (hidden arguments gone from `properties` and `required`, renamed ones under
 * their new names, descriptions and defaults set) and the mapper that turns what they send back into what the
 * method declares, before validation against the method's own schema. `layers` are innermost first.
 */
export function transformArguments(
  schema: JsonSchema,
  layers: readonly Readonly<Record<string, ArgTransform>>[],
  owner: string,
  compiler: SchemaCompiler,
): { schema: JsonSchema; mapper: ArgumentMapper } {
  let advertised = schema;
  const compiled: Layer[] = [];
  for (const layer of layers) {
    const next = transformLayer(advertised, layer, owner, compiler, schema.$defs as Record<string, JsonSchema> | undefined);
    advertised = next.schema;
    compiled.push(next.layer);
  }
  return { schema: advertised, mapper: argumentMapper(compiled) };
}

function transformLayer(
  schema: JsonSchema,
  transforms: Readonly<Record<string, ArgTransform>>,
  owner: string,
  compiler: SchemaCompiler,
  defs: Record<string, JsonSchema> | undefined,
): { schema: JsonSchema; layer: Layer } {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const known = Object.keys(properties);
  const renames = new Map<string, string>();
  const blocked = new Set<string>();
  const hidden: [string, ArgTransform['hide'] & object][] = [];
  const defaults: [string, unknown][] = [];
  for (const [key, transform] of Object.entries(transforms)) {
    if (!Object.prototype.hasOwnProperty.call(properties, key)) throw unknownArgument(owner, key, known);
    checkShape(owner, key, transform);
    const check = (value: unknown, what: string) => checkValue(compiler, properties[key], defs, value, owner, key, what);
    if (transform.hide) {
      blocked.add(key);
      if ('value' in transform.hide) check(transform.hide.value, 'hide: { value }');
      hidden.push([key, 'value' in transform.hide ? { value: copy(transform.hide.value) } : transform.hide]);
      continue;
    }
    if (transform.default !== undefined) {
      check(transform.default, 'default');
      defaults.push([key, copy(transform.default)]);
    }
    if (transform.name !== undefined && transform.name !== key) {
      renames.set(transform.name, key);
      blocked.add(key);
    }
  }
  const served = new Map<string, string>(); // advertised → declared, to find clashes
  const shown: Record<string, JsonSchema> = {};
  for (const key of known) {
    const transform = transforms[key];
    if (transform?.hide) continue;
    const name = transform?.name ?? key;
    const clash = served.get(name);
    if (clash !== undefined) throw argumentClash(owner, name, clash, key);
    served.set(name, key);
    const property = properties[key];
    shown[name] = {
      ...property,
      ...(transform?.description !== undefined ? { description: transform.description } : {}),
      ...(transform?.default !== undefined ? { default: transform.default } : {}),
    };
  }
  const required = Array.isArray(schema.required)
    ? (schema.required as string[]).filter((key) => !transforms[key]?.hide && transforms[key]?.default === undefined).map((key) => transforms[key]?.name ?? key)
    : undefined;
  const { required: _required, ...rest } = schema;
  return {
    schema: { ...rest, properties: shown, ...(required && required.length > 0 ? { required } : {}) },
    layer: { renames, blocked, hidden, defaults },
  };
}

function argumentMapper(layers: readonly Layer[]): ArgumentMapper {
  const outermostFirst = [...layers].reverse();
  const needsContext = layers.some((layer) => layer.hidden.some(([, hide]) => 'fn' in hide));
  const renamed = layers.map((layer) => [...layer.renames].map(([advertised, declared]) => [new RegExp(`^${escape(declared)}(?=[:.[]|$)`), advertised] as const));
  return {
    needsContext,
    map(args, context) {
      let current: Record<string, unknown> | Promise<Record<string, unknown>> = args;
      for (const layer of outermostFirst) current = current instanceof Promise ? current.then((value) => apply(layer, value, context)) : apply(layer, current, context);
      return current;
    },
    advertised(issue) {
      let text = issue;
      for (const layer of renamed) {
        const match = layer.find(([declared]) => declared.test(text)); // one per layer: two arguments may swap names
        if (match) text = text.replace(match[0], match[1]);
      }
      return text;
    },
  };
}

function apply(layer: Layer, args: Record<string, unknown>, context: Context | undefined): Record<string, unknown> | Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(args)) {
    const declared = layer.renames.get(key);
    if (declared !== undefined) put(out, declared, args[key]);
    else if (!layer.blocked.has(key)) put(out, key, args[key]);
  }
  for (const [key, value] of layer.defaults) if (out[key] === undefined) put(out, key, copy(value));
  let pending: Promise<void>[] | undefined;
  for (const [key, hide] of layer.hidden) {
    const value = 'fn' in hide ? hide.fn(context!) : copy(hide.value);
    if (value instanceof Promise) (pending ??= []).push(value.then((resolved: unknown) => put(out, key, resolved)));
    else put(out, key, value);
  }
  return pending ? Promise.all(pending).then(() => out) : out;
}

/** An own property even for `__proto__` (a key a JSON client may send). */
function put(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

/** Each call gets its own copy of an object value: a method may change what it receives. */
function copy(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function checkShape(owner: string, key: string, transform: ArgTransform): void {
  const fail = (cause: string, fix: string) =>
    new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot transform the argument '${key}' of ${owner}: ${cause}.\nFix: ${fix}.`);
  if (typeof transform !== 'object' || transform === null) throw fail('its transform is not an object', `give { name?, description?, default?, hide? }, e.g. args: { ${key}: { name: 'new_name' } }`);
  if (transform.name !== undefined && (typeof transform.name !== 'string' || transform.name === '')) throw fail(`name ${JSON.stringify(transform.name)} is not a non-empty string`, `give the name clients send it under, e.g. { name: '${key}_2' }`);
  if (transform.description !== undefined && typeof transform.description !== 'string') throw fail('description is not a string', 'give a text');
  const { hide } = transform;
  if (hide === undefined) return;
  const valid = typeof hide === 'object' && hide !== null && ('value' in hide ? !('fn' in hide) : typeof (hide as { fn?: unknown }).fn === 'function');
  if (!valid) throw fail('hide is neither { value } nor { fn }', `give hide: { value: 'fixed' } or hide: { fn: (ctx) => ctx.auth?.subject }`);
  if (transform.name !== undefined || transform.default !== undefined || transform.description !== undefined) {
    throw fail('it is hidden and also renamed, described or defaulted, which clients would never see', 'keep hide alone, or drop it to show the argument');
  }
}

function checkValue(compiler: SchemaCompiler, property: JsonSchema, defs: Record<string, JsonSchema> | undefined, value: unknown, owner: string, key: string, what: string): void {
  const check = compiler.compileReporting(defs ? { ...property, $defs: defs } : property, 'output');
  if (check(value)) return;
  const issues = formatIssues(check.errors ?? [], 'property').map((i) => i.replace(/^(must|is) /, 'it $1 '));
  throw new BootstrapError(
    BootstrapErrorCode.InvalidDefault,
    `Cannot transform the argument '${key}' of ${owner}: its ${what} ${JSON.stringify(value)} does not match the argument's schema (${issues.join('; ')}).\n` +
      `Fix: give a value the argument accepts, one the method would have been sent by a client.`,
  );
}

function unknownArgument(owner: string, key: string, known: readonly string[]): BootstrapError {
  const close = closestName(key, known);
  return new BootstrapError(
    BootstrapErrorCode.UnknownTransformTarget,
    `Cannot transform the argument '${key}' of ${owner}: the tool has no argument '${key}'${close ? ` (did you mean '${close}'?)` : ''}.\n` +
      `Fix: key the args transform by one of: ${known.length > 0 ? known.map((k) => `'${k}'`).join(', ') : '(the tool takes no arguments)'}.`,
  );
}

function argumentClash(owner: string, name: string, first: string, second: string): BootstrapError {
  return new BootstrapError(
    BootstrapErrorCode.InvalidOption,
    `Cannot transform the arguments of ${owner}: both '${first}' and '${second}' would be served as '${name}'.\n` +
      `Fix: give one of them another name (args: { ${second}: { name: '${name}_2' } }).`,
  );
}
