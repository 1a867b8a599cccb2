import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { GeneratedMetadata } from '../interfaces';
import { GeneratedTypes } from '../metadata';
import type { MethodHost } from '../invocation';
import { hasComponents } from './explorer';

/**
 * The generated types of one application, from the metadata `mcp-reflect generate` wrote (none:
 * `GeneratedTypes.none`), refusing what is not such a module. Built once per application: nothing is stored
 * beyond the application it is given to.
 */
export function loadGeneratedTypes(metadata: unknown): GeneratedTypes {
  if (metadata === undefined) return GeneratedTypes.none;
  const candidate = (metadata as { default?: unknown })?.default ?? metadata;
  const shaped = candidate as Partial<GeneratedMetadata> | undefined;
  if (typeof shaped !== 'object' || shaped === null || !Array.isArray(shaped.classes) || typeof shaped.version !== 'number') {
    throw new BootstrapError(
      BootstrapErrorCode.GeneratedMetadataInvalid,
      `Cannot use the metadata option: it is not a module written by \`mcp-reflect generate\` (expected { version, classes }).\n` +
        `Fix: pass the generated module's export (import { metadata } from './mcp-metadata'), and regenerate it with \`npx mcp-reflect generate\`.`,
    );
  }
  if (shaped.version !== 1) {
    throw new BootstrapError(
      BootstrapErrorCode.GeneratedMetadataInvalid,
      `Cannot use the metadata option: it has format ${shaped.version}, which this version of mcp-reflect does not read.\n` +
        `Fix: regenerate it with this version's \`npx mcp-reflect generate\`.`,
    );
  }
  return new GeneratedTypes(shaped as GeneratedMetadata);
}

/** Every class serving components must be in the loaded metadata: one added since it was generated is not. */
export function checkGeneratedCoverage(hosts: readonly MethodHost[], types: GeneratedTypes): void {
  for (const { target } of hosts) {
    if (!hasComponents(target) || types.hasMethods(target)) continue;
    throw new BootstrapError(
      BootstrapErrorCode.GeneratedMetadataStale,
      `Cannot build the components of ${target.name}: the generated metadata has no entry for the class (it was generated before ${target.name} ` +
        `had components, or from another tsconfig).\nFix: run \`npx mcp-reflect generate\` (and \`mcp-reflect generate --check\` in CI).`,
    );
  }
}
