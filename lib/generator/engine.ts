import { readFileSync } from 'node:fs';
import path from 'node:path';
import { GeneratorError } from './generator.error';
import { loadFile } from '../runtime/peer';

/*
 * The one file that touches the TypeScript 7 compiler API (`typescript/unstable/sync`, `typescript/unstable/ast`).
 * That API is marked unstable: everything mcp-reflect uses of it is named in the narrow interfaces below, so a
 * change in a later 7.x release is one file to adapt. docs/types.md says why this engine and not TypeScript 5.
 */

export interface TsNode {
  readonly kind: number;
  readonly pos: number;
  readonly end: number;
  readonly parent?: TsNode;
  readonly [key: string]: any;
}

export interface TsType {
  readonly id: number;
  readonly flags: number;
  readonly objectFlags: number;
  readonly value?: string | number | boolean | bigint;
  /** `'error'` for the checker's placeholder of a type it could not resolve (an import of a missing module). */
  readonly intrinsicName?: string;
  /** The text pieces of a template literal type (`id-${string}`: `['id-', '']`); its holes are getTypes(). */
  readonly texts?: readonly string[];
  getSymbol(): TsSymbol | undefined;
  getAliasSymbol(): TsSymbol | undefined;
  isUnionType(): boolean;
  isIntersectionType(): boolean;
  getTypes(): readonly TsType[] | undefined;
}

export interface TsNodeHandle {
  readonly path: string;
  resolve(): TsNode | undefined;
}

export interface TsSymbol {
  readonly id: number;
  readonly name: string;
  readonly flags: number;
  readonly declarations: readonly TsNodeHandle[];
  readonly valueDeclaration: TsNodeHandle | undefined;
  getDocumentationComment(checker: TsChecker): string;
  getJsDocTags(checker: TsChecker): readonly { name: string; text?: string }[];
}

export interface TsChecker {
  getTypeAtLocation(node: TsNode): TsType | undefined;
  getSymbolAtLocation(node: TsNode): TsSymbol | undefined;
  /** The symbol an import alias stands for (`import { Tool as McpTool }`: `Tool`). */
  getAliasedSymbol(symbol: TsSymbol): TsSymbol | undefined;
  getTypeOfSymbol(symbol: TsSymbol): TsType | undefined;
  getPropertiesOfType(type: TsType): readonly TsSymbol[];
  getIndexInfosOfType(type: TsType): readonly { keyType: TsType; valueType: TsType }[];
  getTypeArguments(type: TsType): readonly TsType[];
  getNonNullableType(type: TsType): TsType | undefined;
  getSignaturesOfType(type: TsType, kind: number): readonly unknown[];
  isArrayType(type: TsType): boolean;
  isTupleType(type: TsType): boolean;
  typeToString(type: TsType): string;
}

export interface TsDiagnostic {
  readonly fileName?: string;
  readonly pos: number;
  readonly category: number;
  readonly text: string;
}

/** The compiler's view of one tsconfig project. */
export interface TsProject {
  readonly configFile: string;
  readonly root: string;
  readonly checker: TsChecker;
  readonly sourceFiles: readonly { readonly fileName: string; readonly text: string; readonly statements: readonly TsNode[] }[];
  /** Syntax and option errors, as `file:line:col - message` lines. */
  readonly errors: readonly string[];
  readonly compilerOptions: Record<string, unknown>;
  readonly ast: AstModule;
  readonly flags: { type: Record<string, number>; symbol: Record<string, number>; object: Record<string, number> };
  close(): void;
}

export interface AstModule {
  readonly SyntaxKind: Record<string, number>;
  isClassDeclaration(node: TsNode): boolean;
  isMethodDeclaration(node: TsNode): boolean;
  isPropertyDeclaration(node: TsNode): boolean;
  isDecorator(node: TsNode): boolean;
  isCallExpression(node: TsNode): boolean;
  isIdentifier(node: TsNode): boolean;
  getJSDocTags(node: TsNode): readonly TsNode[];
  getTextOfJSDocComment(comment: unknown): string | undefined;
}

// TypeScript 7's API is ESM: required as Node ≥ 20.19 requires ES modules (through the one loader, which also
// works under jest), never with import(), which a CommonJS loader such as jest's cannot follow without flags.
const importModule = (file: string): Promise<any> => Promise.resolve().then(() => loadFile<any>(file, { feature: 'mcp-reflect generate', install: 'npm install -D typescript@7' }));

/** Opens the project of `configFile` with the TypeScript 7 the project itself has installed. */
export async function openProject(configFile: string): Promise<TsProject> {
  const root = path.dirname(configFile);
  const packageDir = typescriptOf(root);
  const [sync, ast] = await Promise.all([
    importModule(path.join(packageDir, 'dist', 'api', 'sync', 'api.js')),
    importModule(path.join(packageDir, 'dist', 'ast', 'index.js')),
  ]);
  const api = new sync.API({ cwd: root });
  try {
    const snapshot = api.updateSnapshot({ openProject: configFile });
    const project = snapshot.getProject(configFile) ?? snapshot.getProjects()[0];
    if (!project) throw new GeneratorError(`TypeScript opened no project for ${configFile}.`, 'Fix: check that the file is a tsconfig.json.');
    const program = project.program;
    const texts = new Map<string, string>();
    const sourceFiles: TsProject['sourceFiles'] = (program.getSourceFileNames() as string[])
      .filter((name) => !name.includes(`${path.sep}node_modules${path.sep}`) && !name.endsWith('.d.ts'))
      .map((name) => program.getSourceFile(name))
      .filter((file: unknown) => file !== undefined) as never;
    for (const file of sourceFiles) texts.set(file.fileName, file.text);
    const diagnostics: TsDiagnostic[] = [
      ...program.getConfigFileParsingDiagnostics(),
      ...program.getProgramDiagnostics().filter((d: TsDiagnostic) => d.category === 1),
      ...program.getSyntacticDiagnostics(),
    ];
    const errors = diagnostics.filter((d) => d.category === 1).map((d) => describe(d, texts, root));
    return {
      configFile,
      root,
      checker: project.checker,
      sourceFiles,
      errors,
      compilerOptions: project.compilerOptions ?? {},
      ast,
      flags: { type: sync.TypeFlags, symbol: sync.SymbolFlags, object: sync.ObjectFlags },
      close: () => api.close(),
    };
  } catch (error) {
    api.close();
    throw error;
  }
}

function typescriptOf(root: string): string {
  let manifest: string;
  try {
    manifest = require.resolve('typescript/package.json', { paths: [root] });
  } catch {
    throw new GeneratorError(
      `mcp-reflect generate reads types with the project's TypeScript compiler, and none is installed in ${root}.`,
      'Fix: npm install --save-dev typescript@7',
    );
  }
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  if (Number(version.split('.')[0]) < 7) {
    throw new GeneratorError(
      `mcp-reflect generate reads types with TypeScript 7's compiler API; this project has typescript ${version}.`,
      'Fix: npm install --save-dev typescript@7 (the project may keep compiling with any tool; only the generator needs it).',
    );
  }
  return path.dirname(manifest);
}

function describe(d: TsDiagnostic, texts: ReadonlyMap<string, string>, root: string): string {
  if (!d.fileName) return d.text;
  const text = texts.get(d.fileName) ?? '';
  const before = text.slice(0, d.pos).split('\n');
  return `${path.relative(root, d.fileName)}:${before.length}:${before[before.length - 1].length + 1} - ${d.text}`;
}
