import { BootstrapError, BootstrapErrorCode } from '../errors';

/**
 * Fails at once when a decorator runs as a standard (TC39) decorator: TypeScript emits those when
 * `experimentalDecorators` is off, and their second argument is a context object (`{ kind, name, … }`) where
 * a legacy decorator gets a property key (or nothing, on a class). mcp-reflect needs legacy decorators with
 * metadata: without them nothing would be registered, silently.
 */
export function legacyOnly(decorator: string, second: unknown): void {
  if (typeof second !== 'object' || second === null || !('kind' in second)) return;
  const { kind, name } = second as { kind: unknown; name?: unknown };
  throw new BootstrapError(
    BootstrapErrorCode.StandardDecorators,
    `Cannot use ${decorator} on ${String(kind)} '${String(name ?? 'anonymous')}': it ran as a standard (TC39) decorator, which mcp-reflect cannot read.\n` +
      'Cause: "experimentalDecorators" is off, so TypeScript emits standard decorators and no parameter types.\n' +
      'Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true in the compilerOptions of tsconfig.json ' +
      '(with swc: jsc.parser.decorators, jsc.transform.legacyDecorator and jsc.transform.decoratorMetadata), and import "reflect-metadata" first.',
  );
}
