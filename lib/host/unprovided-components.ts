import { COMPONENT_KINDS, type ComponentKind } from '../constants';
import { getComponentClasses, getComponentMethods, getToolMethods } from '../metadata';
import type { ServerLogger } from '../interfaces';
import type { McpWarningOptions } from './mcp-options';

const decoratorOf: Record<ComponentKind, string> = {
  resource: '@Resource()',
  'resource-template': '@ResourceTemplate()',
  'resource-list': '@ResourceList()',
  prompt: '@Prompt()',
  complete: '@Complete()',
};

/**
 * Classes already named in this process: each is warned about once, however many applications start. Kept
 * process-wide on purpose: it guards the process's log, not what an application serves (each application
 * still decides from its own options whether to warn at all).
 */
const warned = new Set<Function>();

/**
 * The classes with component decorators that no served class is, or extends: their components are served by
 * no application built from `served`. A base class is left out when a served class extends it.
 */
export function unprovidedComponentClasses(served: ReadonlySet<Function>): Function[] {
  const hosts = [...served];
  return getComponentClasses().filter((candidate) => !served.has(candidate) && !hosts.some((host) => host.prototype instanceof candidate));
}

/** The decorated methods of a class, as `@Tool() forecast`: what the explorer would serve if it were provided. */
function componentMethods(target: Function): string[] {
  return [
    ...getToolMethods(target).map((method) => `@Tool() ${method}`),
    ...COMPONENT_KINDS.flatMap((kind) => getComponentMethods(kind, target).map((method) => `${decoratorOf[kind]} ${method}`)),
  ];
}

/** `WeatherTools has @Tool() forecast, @Prompt() plan, but no module of AppModule provides WeatherTools …`, with the fix. */
export function unprovidedComponentMessage(target: Function, methods: readonly string[], rootModule: string): string {
  return (
    `${target.name} has ${methods.join(', ')}, but no module of ${rootModule} provides ${target.name}, so none of them is served.\n` +
    `Fix: add ${target.name} to the providers of a module imported by ${rootModule} (or of ${rootModule} itself). ` +
    `If ${target.name} belongs to another application in this process, turn this warning off with ` +
    `McpModule.forRoot({ warnings: { unprovidedComponents: false } }).`
  );
}

/**
 * Warns through `logger` about each class with component decorators that the application does not serve (once
 * per class and process), unless `warnings.unprovidedComponents` is false. Called where one process serves one
 * application: `app.listen()` and the CLI's `inspect` and `call`.
 */
export function warnUnprovidedComponents(served: ReadonlySet<Function>, rootModule: string, logger: ServerLogger, warnings: McpWarningOptions = {}): void {
  if (warnings.unprovidedComponents === false) return;
  for (const target of unprovidedComponentClasses(served)) {
    const methods = componentMethods(target);
    if (warned.has(target) || methods.length === 0) continue;
    warned.add(target);
    logger.warn(unprovidedComponentMessage(target, methods, rootModule));
  }
}
