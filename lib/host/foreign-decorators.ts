import { COMPONENT_KINDS, Scope } from '../constants';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import { getComponentMethods, getEnhancers, getModuleMetadata, getNestEnhancerKinds, getNestInjectableOptions, getToolMethods, getInjectableOptions, type EnhancerKind } from '../metadata';

/**
 * Decorators of the other framework on a served component: each host runs its own framework's enhancers and
 * reads its own `@Injectable()` and `@Module()`, so the other's would be skipped without a word (a guard that
 * never runs). Both hosts refuse them at bootstrap, naming the class, the method and the import to use.
 */
const ENHANCERS: Record<EnhancerKind, { readonly decorator: string; readonly effect: string }> = {
  guards: { decorator: 'UseGuards', effect: 'its guards would never run, and the calls they should refuse would be served' },
  interceptors: { decorator: 'UseInterceptors', effect: 'its interceptors would never run' },
  pipes: { decorator: 'UsePipes', effect: 'its pipes would never run' },
  filters: { decorator: 'UseFilters', effect: 'its exception filters would never run' },
};
const KINDS = Object.keys(ENHANCERS) as EnhancerKind[];
/** Named in messages only: the core never loads Nest. */
const NEST_COMMON = "'@nestjs/common'";

/** The component methods of a class (tools, resources, templates, resource lists, prompts, completers). */
function componentMethods(target: Function): string[] {
  return [...new Set([...getToolMethods(target), ...COMPONENT_KINDS.flatMap((kind) => getComponentMethods(kind, target))])];
}

/**
 * Under the Nest host: mcp-reflect's own `@UseGuards()`, `@UseInterceptors()`, `@UsePipes()`, `@UseFilters()` (on the
 * class or a component method) and `@Injectable({ scope })` on a component class, which Nest never reads.
 */
export function refuseMcpDecoratorsUnderNest(target: Function, module: string): void {
  for (const kind of KINDS) {
    if (getEnhancers(kind, target).length > 0) throw underNest(`${target.name} (provider in ${module})`, 'the class has', kind);
    for (const method of componentMethods(target)) {
      if (getEnhancers(kind, target, method).length > 0) throw underNest(`${target.name}.${method} (provider in ${module})`, 'the method has', kind);
    }
  }
  // A plain @Injectable() of 'mcp-reflect' asks for nothing Nest would miss (a class shared with a standalone server).
  const scope = getInjectableOptions(target)?.scope;
  if (scope !== undefined && scope !== Scope.DEFAULT) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidProvider,
      `Cannot serve ${target.name} (provider in ${module}) in the Nest application: it is decorated with @Injectable({ scope }) of 'mcp-reflect', whose options Nest does not read, so it would be built once and shared by every request.\n` +
        `Fix: import { Injectable, Scope } from ${NEST_COMMON} instead of 'mcp-reflect' (mcp-reflect/nest serves Nest's providers with Nest's scopes).`,
    );
  }
}

/** Under the Nest host: a module of the application decorated with mcp-reflect's `@Module()`, which Nest never reads. */
export function refuseMcpModuleUnderNest(module: Function): void {
  if (getModuleMetadata(module) === undefined) return;
  throw new BootstrapError(
    BootstrapErrorCode.InvalidModule,
    `Cannot serve the Nest application: its module ${module.name} is decorated with @Module() of 'mcp-reflect', which Nest does not read, so its imports, providers and exports would be silently ignored.\n` +
      `Fix: import { Module } from ${NEST_COMMON} instead of 'mcp-reflect' for ${module.name}.`,
  );
}

/**
 * Under the standalone host: NestJS's own `@UseGuards()` & co. (on the class or a component method) and
 * `@Injectable({ scope })` on a component class, which mcp-reflect's container never reads.
 */
export function refuseNestDecoratorsStandalone(target: Function, module: string): void {
  for (const kind of getNestEnhancerKinds(target)) throw standalone(`${target.name} (provider in ${module})`, 'the class has', kind);
  for (const method of componentMethods(target)) {
    for (const kind of getNestEnhancerKinds(target, method)) throw standalone(`${target.name}.${method} (provider in ${module})`, 'the method has', kind);
  }
  if (getNestInjectableOptions(target)) {
    throw new BootstrapError(
      BootstrapErrorCode.InvalidProvider,
      `Cannot serve ${target.name} (provider in ${module}): it is decorated with @Injectable({ scope }) of '@nestjs/common', whose options the standalone server does not read, so it would be built once and shared by every request.\n` +
        `Fix: import { Injectable, Scope } from 'mcp-reflect' instead of '@nestjs/common'; or serve it from a Nest application with McpModule of 'mcp-reflect/nest'.`,
    );
  }
}

function underNest(site: string, holder: string, kind: EnhancerKind): BootstrapError {
  const { decorator, effect } = ENHANCERS[kind];
  return new BootstrapError(
    BootstrapErrorCode.InvalidEnhancer,
    `Cannot serve ${site} in the Nest application: ${holder} @${decorator}() of 'mcp-reflect', which the Nest host does not run (it runs Nest's own enhancers), so ${effect}.\n` +
      `Fix: import { ${decorator} } from ${NEST_COMMON} instead of 'mcp-reflect'.`,
  );
}

function standalone(site: string, holder: string, kind: EnhancerKind): BootstrapError {
  const { decorator, effect } = ENHANCERS[kind];
  return new BootstrapError(
    BootstrapErrorCode.InvalidEnhancer,
    `Cannot serve ${site}: ${holder} @${decorator}() of '@nestjs/common', which the standalone server does not run (it runs mcp-reflect's own enhancers), so ${effect}.\n` +
      `Fix: import { ${decorator} } from 'mcp-reflect' instead of '@nestjs/common'; or serve it from a Nest application with McpModule of 'mcp-reflect/nest'.`,
  );
}
