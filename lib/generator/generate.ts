import { existsSync, mkdirSync, watch } from 'node:fs';
import path from 'node:path';
import { collect } from './collect';
import { emitModule, importExtensionFor } from './emit';
import { openProject } from './engine';
import { GeneratorError } from './generator.error';
import { readOwnFile, replaceFile } from './replace-file';

export interface GenerateOptions {
  /** The tsconfig.json to read (default: ./tsconfig.json). */
  readonly project: string;
  /** The file to write, relative to the working folder (default: the project's src/mcp-metadata.ts when src/ exists, else its mcp-metadata.ts). */
  readonly out?: string;
  /** `mcp-reflect@<version>`, written into the file. */
  readonly generator: string;
  /** Told each step of a run (`Reading tsconfig.json`, `Describing WeatherTools`), for a progress line. */
  readonly onProgress?: (step: string) => void;
}

export interface GenerateResult {
  readonly out: string;
  readonly text: string;
  readonly classes: number;
  readonly methods: number;
  readonly warnings: readonly string[];
  readonly milliseconds: number;
}

/**
 * Where `generate` writes by default for the project of `root` (the tsconfig's folder): its src/mcp-metadata.ts
 * when it has src/, else its mcp-metadata.ts. The CLI's `inspect` and `call` look there too.
 */
export function defaultMetadataFile(root: string): string {
  return path.join(root, existsSync(path.join(root, 'src')) ? 'src/mcp-metadata.ts' : 'mcp-metadata.ts');
}

/** Reads the project and returns the generated module's text (nothing is written). */
export async function generateMetadata(options: GenerateOptions): Promise<GenerateResult> {
  const started = Date.now();
  const configFile = path.resolve(options.project);
  if (!existsSync(configFile)) {
    throw new GeneratorError(`There is no ${path.relative(process.cwd(), configFile) || configFile}.`, 'Fix: run in the project folder, or pass --project path/to/tsconfig.json.', 2);
  }
  const root = path.dirname(configFile);
  // An explicit --out is relative to the working folder, as paths on a command line are; the default to the project's.
  const out = options.out ? path.resolve(options.out) : defaultMetadataFile(root);
  if (!['.ts', '.mts', '.js', '.mjs', '.json'].includes(path.extname(out))) {
    throw new GeneratorError(`Cannot write ${out}: the generated module is .ts, .mts, .js (CommonJS), .mjs or .json.`, 'Fix: pick one of those extensions for --out.', 2);
  }
  let project;
  options.onProgress?.(`Reading ${path.relative(process.cwd(), configFile) || configFile} with TypeScript 7`);
  try {
    project = await openProject(configFile);
  } catch (error) {
    if (error instanceof GeneratorError) throw error;
    throw new GeneratorError(`TypeScript could not read ${configFile}: ${(error as Error).message}`, 'Fix: correct the tsconfig.json (npx tsc --noEmit -p <it> shows the problem).');
  }
  try {
    if (project.errors.length > 0) {
      throw new GeneratorError(
        `The project has errors TypeScript cannot read past:\n${project.errors.slice(0, 20).map((e) => `  ${e}`).join('\n')}`,
        'Fix: correct them (npx tsc --noEmit shows them all), then generate again.',
      );
    }
    let step = 'Reading the project';
    let collected;
    try {
      collected = collect(project, out, (next) => {
        step = next;
        options.onProgress?.(next);
      });
    } catch (error) {
      // The compiler API runs in another process: its failures arrive as long native traces. One line says enough.
      const first = String((error as Error)?.message ?? error).split('\n')[0];
      throw new GeneratorError(
        `TypeScript's compiler API failed (${step}): ${first}`,
        'Fix: this is a bug in mcp-reflect or TypeScript 7; report it with the type that step describes, and state that type with @Param({ schema }) meanwhile.',
      );
    }
    const text = emitModule(collected.classes, {
      out,
      importExtension: importExtensionFor(root, out, project.compilerOptions),
      generator: options.generator,
      config: path.relative(root, configFile).split(path.sep).join('/'),
    });
    const methods = collected.classes.reduce((n, c) => n + Object.keys(c.methods ?? {}).length, 0);
    return { out, text, classes: collected.classes.length, methods, warnings: collected.warnings, milliseconds: Date.now() - started };
  } finally {
    project.close();
  }
}

/** Writes the file when its text changed; true when it did. */
export function writeIfChanged(result: GenerateResult): boolean {
  if (readOwnFile(result.out) === result.text) return false;
  mkdirSync(path.dirname(result.out), { recursive: true });
  // Never through a link a cloned repository may ship at its place: the link is replaced by the file.
  replaceFile(result.out, result.text);
  return true;
}

/** True when the file on disk is exactly what generating now would write. */
export function isCurrent(result: GenerateResult): boolean {
  return readOwnFile(result.out) === result.text;
}

/**
 * Regenerates whenever a TypeScript file under the project's folder changes (the generated file itself and
 * node_modules excepted), one run at a time; returns a function that stops watching.
 */
export function watchProject(options: GenerateOptions, onRun: (result: GenerateResult | Error) => void): () => void {
  const root = path.dirname(path.resolve(options.project));
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let outFile: string | undefined;
  const run = async () => {
    if (running) return void (again = true);
    running = true;
    try {
      const result = await generateMetadata(options);
      outFile = result.out;
      writeIfChanged(result);
      onRun(result);
    } catch (error) {
      onRun(error instanceof Error ? error : new Error(String(error)));
    } finally {
      running = false;
      if (again) {
        again = false;
        void run();
      }
    }
  };
  const watcher = watch(root, { recursive: true }, (_event, name) => {
    const file = name ? path.join(root, name.toString()) : '';
    if (!/\.(ts|tsx|mts|cts|json)$/.test(file) || file.includes(`${path.sep}node_modules${path.sep}`) || file === outFile) return;
    clearTimeout(timer);
    timer = setTimeout(() => void run(), 100);
  });
  // A watcher error (the folder removed, the system's watch limit reached) is told like a failed run, not thrown.
  watcher.on('error', (error) => onRun(error instanceof Error ? error : new Error(String(error))));
  void run();
  return () => {
    clearTimeout(timer);
    watcher.close();
  };
}
