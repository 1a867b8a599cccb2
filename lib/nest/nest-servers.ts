import type { DiscoveryService, ModulesContainer } from '@nestjs/core';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { McpNestOptions } from './mcp-nest.options';

/** What the servers read of a Nest `Module`: its class and what it imports. */
export interface NestModuleNode {
  readonly metatype: Function;
  readonly imports: Iterable<NestModuleNode>;
  readonly isGlobal?: boolean;
}

/** The Nest modules a server names (`modules`), and every module they import (global ones aside); undefined: every module. */
export function servedNestModules(container: ModulesContainer, options: McpNestOptions): ReadonlySet<NestModuleNode> | undefined {
  if (!options.modules) return undefined;
  const classes = new Set<Function>(options.modules.map((m) => (typeof m === 'function' ? m : m.module)));
  const served = new Set<NestModuleNode>();
  // Nest links every global module into every module's imports: those (McpModule among them) are not followed.
  const visit = (module: NestModuleNode) => {
    if (served.has(module) || (module.isGlobal && !classes.has(module.metatype))) return;
    served.add(module);
    for (const imported of module.imports) visit(imported);
  };
  for (const module of container.values() as Iterable<NestModuleNode>) if (classes.has(module.metatype)) visit(module);
  return served;
}

/**
 * The servers of one Nest application (every McpService), checked once any of them bootstraps: several need
 * their `modules`, distinct names and distinct HTTP paths.
 */
export function checkNestServers(discovery: DiscoveryService, isServer: (instance: unknown) => boolean, optionsOf: (instance: unknown) => McpNestOptions): McpNestOptions[] {
  const servers = discovery.getProviders().flatMap((wrapper) => (isServer(wrapper.instance) ? [optionsOf(wrapper.instance)] : []));
  const unique = [...new Set(servers)];
  if (unique.length <= 1) return unique;
  const names = unique.map((s) => s.name);
  const fail = (cause: string, fix: string) =>
    new BootstrapError(BootstrapErrorCode.InvalidOption, `Cannot serve the MCP servers of the Nest application (${names.map((n) => `'${n}'`).join(', ')}): ${cause}.\nFix: ${fix}.`);
  const unnamed = unique.filter((s) => !s.modules).map((s) => `'${s.name}'`);
  if (unnamed.length > 0) throw fail(`${unnamed.join(', ')} does not name the modules it serves`, "give each McpModule.forRoot() its modules, e.g. McpModule.forRoot({ name: 'admin', version: '1.0.0', modules: [AdminModule], http: { path: '/admin' } })");
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) throw fail(`two are named '${twice}'`, 'give each server its own name');
  const paths = unique.filter((s) => s.http !== false).map((s) => (s.http || {}).path ?? '/mcp');
  const clash = paths.find((path, i) => paths.indexOf(path) !== i);
  if (clash !== undefined) throw fail(`two are served at the route ${clash}`, "give each its own http.path, e.g. http: { path: '/admin' }");
  return unique;
}
