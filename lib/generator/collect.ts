import path from 'node:path';
import type { GeneratedMethod, GeneratedParam, GeneratedProperty } from '../interfaces';
import { signatureFingerprint } from '../metadata';
import type { TsNode, TsProject } from './engine';
import { isFunction, isInputProperty, symbolDocs, TypeMapper } from './type-mapper';

/** The decorators that make a method a component: its parameters become schemas. */
const COMPONENT_DECORATORS = new Set(['Tool', 'Resource', 'ResourceTemplate', 'ResourceList', 'Prompt', 'Complete', 'UiResource']);

/** One class to write: where it is, whether the generated module can import it, and its entry. */
export interface CollectedClass {
  readonly name: string;
  /** Relative to the project's folder, with forward slashes. */
  readonly file: string;
  readonly absolute: string;
  readonly exported: boolean;
  readonly methods?: Record<string, GeneratedMethod>;
  readonly properties?: Record<string, GeneratedProperty>;
}

export interface Collected {
  readonly classes: CollectedClass[];
  readonly warnings: string[];
}

/** Finds every component method and every class its parameters reach, and describes their types. */
export function collect(project: TsProject, exclude: string, onProgress?: (step: string) => void): Collected {
  const { ast } = project;
  const mapper = new TypeMapper(project);
  const classes: CollectedClass[] = [];
  for (const file of project.sourceFiles) {
    if (path.resolve(file.fileName) === path.resolve(exclude)) continue;
    if (path.relative(project.root, file.fileName).startsWith('..')) continue; // path-mapped libraries
    for (const statement of file.statements) {
      if (!ast.isClassDeclaration(statement) || !statement.name) continue;
      onProgress?.(`Describing ${statement.name.text}`);
      const methods: Record<string, GeneratedMethod> = {};
      for (const member of statement.members as TsNode[]) {
        if (!ast.isMethodDeclaration(member) || !decoratorNames(member, project).some((n) => COMPONENT_DECORATORS.has(n))) continue;
        const name = member.name?.text as string | undefined;
        if (name) methods[name] = describeMethod(member, `${statement.name.text}.${name}`, project, mapper);
      }
      if (Object.keys(methods).length === 0) continue;
      classes.push({ ...where(statement, file.fileName, project), methods });
    }
  }
  // DTO classes, including those found while describing other DTOs.
  const done = new Set<number>();
  for (let pending = [...mapper.classes.values()]; pending.length > 0; pending = [...mapper.classes.values()].filter((c) => !done.has(c.symbol.id))) {
    for (const use of pending) {
      done.add(use.symbol.id);
      classes.push({ ...where(use.declaration, use.file, project), properties: describeProperties(use.declaration, project, mapper) });
    }
  }
  classes.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
  return { classes: qualifyClassNames(mergeSameClass(classes)), warnings: mapper.warnings };
}

/** A class serving components that is also a parameter's type is one entry (two would replace each other at load). */
function mergeSameClass(classes: CollectedClass[]): CollectedClass[] {
  const merged: CollectedClass[] = [];
  for (const cls of classes) {
    const previous = merged[merged.length - 1];
    if (previous && previous.absolute === cls.absolute && previous.name === cls.name) {
      merged[merged.length - 1] = { ...previous, ...cls, methods: previous.methods ?? cls.methods, properties: previous.properties ?? cls.properties };
    } else merged.push(cls);
  }
  return merged;
}

/**
 * A type naming a class says `Name` when no other collected class has that name, else `file#Name`: two
 * `Address` classes in two files are told apart at run time by the file their entries carry.
 */
function qualifyClassNames(classes: CollectedClass[]): CollectedClass[] {
  const count = new Map<string, number>();
  for (const cls of classes) count.set(cls.name, (count.get(cls.name) ?? 0) + 1);
  const name = <T extends GeneratedParam | GeneratedProperty>(type: T): T => {
    if (type.class === undefined || !type.class.includes('#')) return type;
    const bare = type.class.slice(type.class.lastIndexOf('#') + 1);
    return (count.get(bare) ?? 0) > 1 ? type : { ...type, class: bare };
  };
  return classes.map((cls) => ({
    ...cls,
    ...(cls.methods
      ? { methods: Object.fromEntries(Object.entries(cls.methods).map(([key, m]) => [key, { ...m, params: m.params.map(name) }])) }
      : {}),
    ...(cls.properties ? { properties: Object.fromEntries(Object.entries(cls.properties).map(([key, p]) => [key, name(p)])) } : {}),
  }));
}

function where(declaration: TsNode, fileName: string, project: TsProject) {
  const exported =
    declaration.parent?.kind === project.ast.SyntaxKind.SourceFile &&
    ((declaration.modifiers as TsNode[] | undefined) ?? []).some((m) => m.kind === project.ast.SyntaxKind.ExportKeyword);
  return {
    name: declaration.name?.text as string,
    file: path.relative(project.root, fileName).split(path.sep).join('/'),
    absolute: fileName,
    exported,
  };
}

function describeMethod(method: TsNode, owner: string, project: TsProject, mapper: TypeMapper): GeneratedMethod {
  const { checker, ast } = project;
  const symbol = checker.getSymbolAtLocation(method.name);
  const paramDocs = new Map<string, string>();
  for (const tag of symbol?.getJsDocTags(checker) ?? []) {
    const match = tag.name === 'param' ? /^\s*(\S+)\s*(?:-\s*)?([\s\S]*)$/.exec(tag.text ?? '') : null;
    if (match && match[2].trim()) paramDocs.set(match[1], match[2].trim());
  }
  const params: GeneratedParam[] = [];
  const signature: { name?: string; initialised?: boolean; rest?: boolean }[] = [];
  // A `this` parameter types the receiver and is erased by compilation: it is no position of the running method.
  const written = (method.parameters as TsNode[]).filter((param) => !(ast.isIdentifier(param.name) && param.name.text === 'this'));
  written.forEach((param, index) => {
    const name = ast.isIdentifier(param.name) ? (param.name.text as string) : undefined;
    signature.push(name === undefined ? {} : { name, initialised: param.initializer !== undefined, rest: param.dotDotDotToken !== undefined });
    // `@Ctx()` receives the request Context, never an argument: it has no schema, and its class is the library's.
    if (param.dotDotDotToken || decoratorNames(param, project).includes('Ctx')) return;
    const type = checker.getTypeAtLocation(param);
    if (!type) return;
    // A destructured parameter (`@Args() { text, limit }: Query`) is described too: its name comes from the decorator.
    const described = mapper.describe(type, `${owner} parameter #${index}${name === undefined ? '' : ` '${name}'`}`, literalOrder(param.type, project));
    const literal = param.initializer ? literalDefault(param.initializer, project) : undefined;
    const entry: GeneratedParam = {
      name: name ?? '{}',
      index,
      ...described,
      ...(param.questionToken || param.initializer ? { optional: true } : {}),
      ...(literal ? { default: literal.value } : {}),
      ...(name !== undefined && paramDocs.has(name) ? { description: paramDocs.get(name) } : {}),
    };
    params.push(entry);
  });
  const description = symbol?.getDocumentationComment(checker).trim();
  return {
    fingerprint: signatureFingerprint(method.name.text as string, signature),
    ...(description ? { description } : {}),
    params,
  };
}

function describeProperties(declaration: TsNode, project: TsProject, mapper: TypeMapper): Record<string, GeneratedProperty> {
  const { checker } = project;
  const instance = checker.getTypeAtLocation(declaration.name);
  const properties: Record<string, GeneratedProperty> = {};
  if (!instance) return properties;
  for (const property of checker.getPropertiesOfType(instance)) {
    if (!isInputProperty(property, project)) continue;
    const type = checker.getTypeOfSymbol(property);
    if (!type || isFunction(type, project)) continue;
    const node = property.valueDeclaration?.resolve();
    const described = mapper.describe(type, `${declaration.name.text}.${property.name}`, literalOrder(node?.type, project));
    const literal = node?.initializer ? literalDefault(node.initializer, project) : undefined;
    properties[property.name] = {
      ...described,
      ...((property.flags & project.flags.symbol.Optional) !== 0 || described.optional || node?.initializer ? { optional: true } : {}),
      ...(literal ? { default: literal.value } : {}),
      ...symbolDocs(property, project),
      decorated: node !== undefined && decoratorNames(node, project).length > 0,
    };
  }
  return properties;
}

/**
 * The literal values of a written type in source order — `'plain' | 'excited'`, through parentheses and type
 * aliases (`type Style = …`, a few levels) — or undefined when it is not a union of literals.
 */
function literalOrder(node: TsNode | undefined, project: TsProject, depth = 0): unknown[] | undefined {
  if (!node || depth > 4) return undefined;
  const k = project.ast.SyntaxKind;
  if (node.kind === k.ParenthesizedType) return literalOrder(node.type, project, depth + 1);
  if (node.kind === k.UnionType) {
    const parts = (node.types as TsNode[]).map((member) => literalOrder(member, project, depth + 1));
    return parts.every((part) => part !== undefined) ? parts.flat() : undefined;
  }
  if (node.kind === k.LiteralType) {
    const literal = node.literal as TsNode;
    if (literal.kind === k.StringLiteral || literal.kind === k.NoSubstitutionTemplateLiteral) return [literal.text];
    if (literal.kind === k.NumericLiteral) return [Number(literal.text)];
    if (literal.kind === k.PrefixUnaryExpression && literal.operand?.kind === k.NumericLiteral) return [-Number(literal.operand.text)];
    if (literal.kind === k.TrueKeyword) return [true];
    if (literal.kind === k.FalseKeyword) return [false];
    if (literal.kind === k.NullKeyword) return [null];
    return undefined;
  }
  if (node.kind === k.TypeReference) {
    let symbol = project.checker.getSymbolAtLocation(node.typeName);
    if (symbol && symbol.flags & project.flags.symbol.Alias) symbol = project.checker.getAliasedSymbol(symbol);
    const declaration = symbol?.declarations?.[0]?.resolve();
    return declaration?.kind === k.TypeAliasDeclaration ? literalOrder(declaration.type, project, depth + 1) : undefined;
  }
  return undefined;
}

function decoratorNames(node: TsNode, project: TsProject): string[] {
  const { ast } = project;
  const names: string[] = [];
  for (const modifier of (node.modifiers as TsNode[] | undefined) ?? []) {
    if (!ast.isDecorator(modifier)) continue;
    let expression = modifier.expression as TsNode;
    if (ast.isCallExpression(expression)) expression = expression.expression;
    const name = ast.isIdentifier(expression) ? expression.text : expression.name?.text;
    if (typeof name !== 'string') continue;
    names.push(name);
    // `import { Tool as McpTool }`: the decorator is the imported one.
    const symbol = COMPONENT_DECORATORS.has(name) ? undefined : project.checker.getSymbolAtLocation(expression);
    if (symbol && symbol.flags & project.flags.symbol.Alias) {
      const target = project.checker.getAliasedSymbol(symbol);
      if (target && target.name !== name) names.push(target.name);
    }
  }
  return names;
}

/**
 * A literal initialiser's value: strings as the compiler reads them (escapes included), numbers, booleans,
 * null, JSON arrays/objects of them, and anything whose type is one literal (`= DEFAULT_LIMIT` of a
 * `const DEFAULT_LIMIT = 5`, `= Priority.Low`).
 */
function literalDefault(node: TsNode, project: TsProject): { value: unknown } | undefined {
  const { SyntaxKind } = project.ast;
  if ((node.kind === SyntaxKind.StringLiteral || node.kind === SyntaxKind.NoSubstitutionTemplateLiteral) && typeof node.text === 'string') {
    return { value: node.text };
  }
  const text = (project.sourceFiles.find((f) => f.fileName === sourceFileOf(node)?.fileName)?.text ?? '').slice(node.pos, node.end).trim();
  if (/^-?\d[\d_]*(\.\d+)?([eE][+-]?\d+)?$/.test(text)) return { value: Number(text.replace(/_/g, '')) };
  if (text === 'true' || text === 'false' || text === 'null') return { value: JSON.parse(text) };
  const type = project.checker.getTypeAtLocation(node);
  const f = project.flags.type;
  if (type && type.flags & (f.StringLiteral | f.NumberLiteral) && (typeof type.value === 'string' || typeof type.value === 'number')) {
    return { value: type.value };
  }
  if (type && type.flags & f.BooleanLiteral && (type.intrinsicName === 'true' || type.intrinsicName === 'false')) {
    return { value: type.intrinsicName === 'true' };
  }
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}

function sourceFileOf(node: TsNode): { fileName: string } | undefined {
  let current: TsNode | undefined = node;
  while (current?.parent) current = current.parent;
  return current as unknown as { fileName: string } | undefined;
}
