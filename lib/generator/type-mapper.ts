import path from 'node:path';
import type { GeneratedType, JsonSchema } from '../interfaces';
import type { TsNode, TsProject, TsSymbol, TsType } from './engine';

/** A class the mapper met as a type: the generator describes its properties too. */
export interface ClassUse {
  readonly symbol: TsSymbol;
  readonly declaration: TsNode;
  readonly file: string;
}

type Described = Omit<GeneratedType, 'description' | 'examples' | 'deprecated' | 'default'>;

/**
 * TypeScript types → JSON Schema, as far as JSON can carry them: literal unions become `enum`, other unions
 * `anyOf`, `| undefined` optional, `| null` nullable, arrays and tuples `items`/`prefixItems`, index signatures
 * (`Record<string, T>`) `additionalProperties`, interfaces and type aliases inline object schemas, `Date` a
 * date-time string, and classes their properties (and a `class` name, so the running class builds the value).
 */
export class TypeMapper {
  readonly classes = new Map<TsSymbol['id'], ClassUse>();
  readonly warnings: string[] = [];
  private readonly stack: number[] = [];

  constructor(private readonly project: TsProject) {}

  /** `order`: the literal values as the source writes them (`'plain' | 'excited'`), for the order of an `enum`. */
  describe(type: TsType, where: string, order?: readonly unknown[]): Described {
    const f = this.project.flags.type;
    if (type.isUnionType()) return this.union(type, where, order);
    if (type.flags & f.Any && type.intrinsicName === 'error') {
      this.warnings.push(`${where}: TypeScript could not resolve this type (a missing import or module?); it is described as any value ({}).`);
      return { schema: {} };
    }
    if (type.flags & (f.Any | f.Unknown | f.TypeParameter)) return { schema: {} };
    if (type.flags & f.TemplateLiteral) return { schema: templateSchema(type, f) };
    if (type.flags & f.StringMapping) return { schema: { type: 'string' } };
    if (type.flags & f.Undefined || type.flags & f.Void) return { schema: {}, optional: true };
    if (type.flags & f.Null) return { schema: { type: 'null' } };
    if (type.flags & (f.StringLiteral | f.NumberLiteral | f.BooleanLiteral)) return { schema: literalSchema([literalOf(type)]) };
    if (type.flags & f.String) return { schema: { type: 'string' } };
    if (type.flags & f.Number) return { schema: { type: 'number' } };
    if (type.flags & f.Boolean) return { schema: { type: 'boolean' } };
    if (type.flags & f.BigInt || type.flags & f.ESSymbol) return this.unsupported(type, where);
    if (type.flags & (f.Object | f.Intersection)) return this.object(type, where);
    return this.unsupported(type, where);
  }

  private union(type: TsType, where: string, order?: readonly unknown[]): Described {
    const f = this.project.flags.type;
    const members = type.getTypes() ?? [];
    const optional = members.some((m) => m.flags & (f.Undefined | f.Void));
    const nullable = members.some((m) => m.flags & f.Null);
    let rest = members.filter((m) => !(m.flags & (f.Undefined | f.Void | f.Null)));
    const booleans = rest.filter((m) => m.flags & f.BooleanLiteral);
    const withBoolean = booleans.length === 2;
    if (withBoolean) rest = rest.filter((m) => !(m.flags & f.BooleanLiteral));
    const flagsOf = { ...(optional ? { optional } : {}), ...(nullable ? { nullable } : {}) };

    if (rest.length === 0 && withBoolean) return { schema: withNull({ type: 'boolean' }, nullable), ...flagsOf };
    if (rest.length === 0) return { schema: nullable ? { type: 'null' } : {}, ...flagsOf };
    if (rest.length === 1 && !withBoolean) {
      const one = this.describe(rest[0], where);
      return { ...one, schema: withNull(one.schema, nullable), ...flagsOf };
    }
    if (!withBoolean && rest.every((m) => m.flags & (f.StringLiteral | f.NumberLiteral | f.BooleanLiteral))) {
      const values: unknown[] = rest.map(literalOf);
      // The compiler keeps a union's members in its own order: an enum lists them as the source wrote them.
      if (order) values.sort((a, b) => rank(order, a) - rank(order, b));
      if (nullable) values.push(null);
      return { schema: literalSchema(values), ...flagsOf };
    }
    const anyOf = rest.map((m) => this.describe(m, where).schema);
    if (withBoolean) anyOf.push({ type: 'boolean' });
    if (nullable) anyOf.push({ type: 'null' });
    return { schema: { anyOf }, ...flagsOf };
  }

  private object(type: TsType, where: string): Described {
    const { checker } = this.project;
    const symbol = type.getSymbol();
    const name = symbol?.name;
    if (name === 'Date' && fromLibrary(symbol)) return { schema: { type: 'string', format: 'date-time' }, class: 'Date' };
    if (checker.isArrayType(type)) {
      const [itemType] = checker.getTypeArguments(type);
      const item = itemType ? this.describe(itemType, `${where}[]`) : { schema: {} };
      const schema: JsonSchema = { type: 'array', items: item.schema };
      return item.class && !item.nullable ? { schema, class: item.class, array: true } : { schema };
    }
    if (checker.isTupleType(type)) {
      const items = checker.getTypeArguments(type).map((t, i) => this.describe(t, `${where}[${i}]`).schema);
      return { schema: { type: 'array', prefixItems: items, minItems: items.length, maxItems: items.length } };
    }
    if (symbol && fromLibrary(symbol) && !(name === 'Record' || name === '__type' || name === 'Object')) {
      // A class of the platform or a package (Map, URL, Buffer, Uint8Array…): its instances are no JSON value.
      const { Class, Variable } = this.project.flags.symbol;
      if (symbol.flags & (Class | Variable)) return this.unsupported(type, where);
    }
    if (checker.getSignaturesOfType(type, 0).length > 0) return this.unsupported(type, where);
    if (this.stack.includes(type.id)) return { schema: { type: 'object' } };
    const classUse = symbol && symbol.flags & this.project.flags.symbol.Class && !fromLibrary(symbol) ? this.useClass(symbol) : undefined;
    // A generic class instantiation (`Page<Item>`) keeps its inline schema: the class alone does not know its `T`.
    // (getTypeArguments only for type references: the compiler fails on any other type.)
    const generic = classUse !== undefined && (type.objectFlags & this.project.flags.object.Reference) !== 0 && checker.getTypeArguments(type).length > 0;
    this.stack.push(type.id);
    try {
      return { schema: this.objectSchema(type, where), ...(classUse && !generic ? { class: classUse } : {}) };
    } finally {
      this.stack.pop();
    }
  }

  /** The object schema of a class, interface, type literal, intersection or `Record`. */
  objectSchema(type: TsType, where: string): JsonSchema {
    const { checker } = this.project;
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      if (!isInputProperty(property, this.project)) continue;
      const propertyType = checker.getTypeOfSymbol(property);
      if (!propertyType || isFunction(propertyType, this.project)) continue;
      const described = this.describe(propertyType, `${where}.${property.name}`);
      const docs = symbolDocs(property, this.project);
      properties[property.name] = { ...described.schema, ...docs };
      const initialised = property.valueDeclaration?.resolve()?.initializer !== undefined;
      if (!(property.flags & this.project.flags.symbol.Optional) && !described.optional && !initialised) required.push(property.name);
    }
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length > 0) schema.required = required;
    const f = this.project.flags.type;
    const infos = checker.getIndexInfosOfType(type);
    const index = infos.find((info) => info.keyType.flags & f.String);
    // `Record<number, T>` / `[i: number]: T`: JSON keys are strings, so numeric ones are a key pattern.
    const numeric = index ? undefined : infos.find((info) => info.keyType.flags & f.Number);
    const values = index ?? numeric;
    schema.additionalProperties = values ? this.describe(values.valueType, `${where}[key]`).schema : false;
    if (numeric) schema.propertyNames = { pattern: '^-?(?:\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?|Infinity|NaN)$' };
    if (Object.keys(properties).length === 0 && values) delete schema.properties;
    return schema;
  }

  /** `file#Name` (file relative to the project): collect() drops the file where the name alone is unique. */
  private useClass(symbol: TsSymbol): string | undefined {
    const handle = symbol.valueDeclaration ?? symbol.declarations[0];
    const declaration = handle?.resolve();
    if (!declaration) return undefined;
    if (!this.classes.has(symbol.id)) this.classes.set(symbol.id, { symbol, declaration, file: handle!.path });
    return `${path.relative(this.project.root, handle!.path).split(path.sep).join('/')}#${symbol.name}`;
  }

  private unsupported(type: TsType, where: string): Described {
    this.warnings.push(`${where}: ${this.project.checker.typeToString(type)} has no JSON form; it is described as any value ({}).`);
    return { schema: {} };
  }
}

/** JSDoc of a symbol: text → description, `@example` → examples, `@deprecated` → deprecated. */
export function symbolDocs(symbol: TsSymbol, project: TsProject): Pick<GeneratedType, 'description' | 'examples' | 'deprecated'> {
  const out: { description?: string; examples?: unknown[]; deprecated?: boolean } = {};
  const text = symbol.getDocumentationComment(project.checker).trim();
  if (text) out.description = text;
  for (const tag of symbol.getJsDocTags(project.checker)) {
    if (tag.name === 'deprecated') out.deprecated = true;
    if (tag.name === 'example' && tag.text !== undefined) (out.examples ??= []).push(exampleValue(tag.text));
  }
  return out;
}

/** An `@example` is JSON when it parses as JSON, else its text. */
export function exampleValue(text: string): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed);
  } catch {
    return trimmed;
  }
}

/**
 * A property a client may send: not a method, not a getter without a setter (it computes its value, and an
 * instance could not take one), not `private`, `protected` or `#private` (the class's own state).
 */
export function isInputProperty(symbol: TsSymbol, project: TsProject): boolean {
  const { Method, GetAccessor, SetAccessor } = project.flags.symbol;
  if (symbol.flags & Method) return false;
  if ((symbol.flags & GetAccessor) !== 0 && (symbol.flags & SetAccessor) === 0) return false;
  if (symbol.name.startsWith('__#') || symbol.name.startsWith('#')) return false;
  const { SyntaxKind } = project.ast;
  const node = symbol.valueDeclaration?.resolve();
  if (node?.name?.kind === SyntaxKind.PrivateIdentifier) return false;
  const modifiers = (node?.modifiers as TsNode[] | undefined) ?? [];
  return !modifiers.some((m) => m.kind === SyntaxKind.PrivateKeyword || m.kind === SyntaxKind.ProtectedKeyword);
}

/** A function type (optional ones too: `callback?: () => void`): a member, not data. */
export function isFunction(type: TsType, project: TsProject): boolean {
  const { checker } = project;
  return checker.getSignaturesOfType(checker.getNonNullableType(type) ?? type, 0).length > 0;
}

/** `id-${string}` → a string with a pattern (holes: numbers, booleans, literals; anything else matches any text). */
function templateSchema(type: TsType, f: Record<string, number>): JsonSchema {
  const texts = type.texts ?? [];
  const holes = type.getTypes() ?? [];
  if (texts.length !== holes.length + 1) return { type: 'string' };
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const hole = (t: TsType): string => {
    if (t.flags & f.Number) return '-?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?';
    if (t.flags & f.Boolean) return '(?:true|false)';
    if (t.flags & (f.StringLiteral | f.NumberLiteral | f.BooleanLiteral)) return escape(String(literalOf(t)));
    if (t.isUnionType() && (t.getTypes() ?? []).every((m) => m.flags & (f.StringLiteral | f.NumberLiteral | f.BooleanLiteral))) {
      return `(?:${(t.getTypes() ?? []).map((m) => escape(String(literalOf(m)))).join('|')})`;
    }
    return '[\\s\\S]*';
  };
  return { type: 'string', pattern: `^${texts.map((text, i) => (i === 0 ? escape(text) : hole(holes[i - 1]) + escape(text))).join('')}$` };
}

function rank(order: readonly unknown[], value: unknown): number {
  const i = order.indexOf(value);
  return i === -1 ? order.length : i;
}

function literalOf(type: TsType): string | number | boolean {
  const value = type.value;
  if (typeof value === 'bigint') return Number(value);
  return value as string | number | boolean;
}

function literalSchema(values: readonly unknown[]): JsonSchema {
  const types = [...new Set(values.map((v) => (v === null ? 'null' : typeof v)))];
  if (values.length === 1) return { type: types[0], const: values[0] };
  return { type: types.length === 1 ? types[0] : types, enum: [...values] };
}

function withNull(schema: JsonSchema, nullable: boolean): JsonSchema {
  if (!nullable) return schema;
  if (typeof schema.type === 'string' && schema.enum === undefined && schema.const === undefined) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

function fromLibrary(symbol: TsSymbol | undefined): boolean {
  const file = (symbol?.valueDeclaration ?? symbol?.declarations[0])?.path ?? '';
  return /[\\/]node_modules[\\/]|[\\/]lib\.[\w.]*\.d\.ts$|\.d\.ts$/.test(file);
}
