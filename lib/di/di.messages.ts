import { describeToken, indent } from '../errors/describe';
import { isNestModule } from '../metadata';

export function unknownDependencyMessage(args: {
  owner: string;
  signature: string[];
  index: number;
  token: unknown;
  module: string;
}): string {
  const { owner, signature, index, token, module } = args;
  const shown = signature.map((name, i) => (i === index ? '?' : name)).join(', ');
  const head = `Cannot resolve dependencies of ${owner} (${shown}): the argument at index [${index}]`;
  if (token === Object) {
    return (
      `${head} was reflected as Object, so there is no token to look up in the ${module} context.\n\n` +
      `Cause: its type is an interface, a union, or a type-only import (\`import type\`), which TypeScript erases at runtime.\n` +
      `Fix: inject it by token with @Inject(TOKEN) on the parameter and register { provide: TOKEN, useValue | useClass | useFactory } ` +
      `in ${module}, or import the class itself with a value import.`
    );
  }
  if (token === undefined) {
    return (
      `${head} was reflected as undefined, so there is no token to look up in the ${module} context.\n\n` +
      `Cause: its class was not defined yet when the decorator ran: two files import each other (a circular file import).\n` +
      `Fix: write @Inject(forwardRef(() => TheClass)) on the parameter, so the class is looked up once both files have ` +
      `loaded, or move the shared code into a third file to break the import cycle.`
    );
  }
  const name = describeToken(token);
  return (
    `${head}, ${name}, is not available in the ${module} context.\n\n` +
    `Potential solutions:\n` +
    `- If ${name} is a provider, add it to the providers of ${module}.\n` +
    `- If ${name} is exported from another module, import that module into ${module}.\n` +
    `- If ${name} is provided by a module that ${module} imports, add it to that module's exports.`
  );
}

export function causedBy(owner: string, cause: Error): string {
  return `Cannot create ${owner} because a dependency failed. Reason:\n${indent(cause.message)}`;
}

export function circularDependencyMessage(path: string[]): string {
  return (
    `Cannot create ${path[0]}: circular dependency ${path.join(' -> ')}.\n` +
    `Fix: break the cycle by moving the shared logic into a third provider, or inject lazily with ` +
    `@Inject(forwardRef(() => ${path[1]})) in the constructor of ${path[0]} (and, across two files, forwardRef on both sides: ` +
    `it is needed in the file that loads first; see docs/errors.md#circular_dependency).`
  );
}

export function duplicateProviderMessage(token: unknown, module: string): string {
  const name = describeToken(token);
  return (
    `Cannot register ${name} twice in ${module}: two providers of the module use the same token, so one would silently replace the other.\n` +
    `Fix: remove one of them, or give them different tokens ({ provide: 'OTHER_TOKEN', ... }).`
  );
}

export function outsideRequestMessage(token: unknown): string {
  return (
    `Cannot provide ${describeToken(token)} outside a request: it exists only while an MCP request is served.\n` +
    `Fix: inject it only into request-scoped providers and tool classes (@Injectable({ scope: Scope.REQUEST })), which are built during a call.`
  );
}

export function notInjectableMessage(owner: string, module: string, count: number): string {
  return (
    `Cannot create ${owner} in ${module}: its constructor takes ${count} parameter(s) but TypeScript emitted no types for them.\n` +
    `Fix: decorate the class with @Injectable(), and make sure "emitDecoratorMetadata" and "experimentalDecorators" are on in tsconfig.json.`
  );
}

export function invalidProviderMessage(provider: unknown, module: string, index: number): string {
  const hint =
    provider === undefined
      ? ` An undefined entry usually means a circular file import: the class was not defined yet when @Module() ran.`
      : '';
  return (
    `Cannot register providers[${index}] of ${module}: ${describeValue(provider)} is neither a class nor a { provide, useClass | useValue | useFactory | useExisting } object.${hint}\n` +
    `Fix: list classes or provider objects in @Module({ providers }).`
  );
}

export function invalidModuleMessage(value: unknown, parent: string): string {
  if (typeof value === 'function' && isNestModule(value)) {
    return (
      `Cannot import ${value.name} into ${parent}: it is a NestJS module (@Module() of @nestjs/common), and the standalone server (McpFactory, McpModule of 'mcp-reflect') builds its own modules.\n` +
      `Fix: serve a Nest application's components from inside it, with McpModule.forRoot() of 'mcp-reflect/nest' imported into ${value.name} (docs/nestjs.md); or decorate the module with @Module() of 'mcp-reflect'.`
    );
  }
  return (
    `Cannot import ${describeValue(value)} into ${parent}: it is not a class decorated with @Module() nor a dynamic module ({ module, providers, ... }).\n` +
    `Fix: decorate the class with @Module({ ... }), or check the import for a typo or a circular file import (the value is undefined then).`
  );
}

export function factoryFailedMessage(token: unknown, module: string, cause: unknown): string {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return `Cannot create ${describeToken(token)} in ${module}: its factory threw. Reason:\n${indent(reason)}`;
}

function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return `class ${value.name || '(anonymous)'}`;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function invalidExportMessage(token: unknown, module: string): string {
  const name = describeToken(token);
  return (
    `Cannot export ${name} from ${module}: it is neither a provider of ${module} nor exported by a module that ${module} imports.\n` +
    `Fix: add ${name} to the providers of ${module}, import the module that provides it, or remove it from the exports.`
  );
}

export function unknownOverrideMessage(token: unknown): string {
  const name = describeToken(token);
  return (
    `Cannot override ${name}: no module of the testing module's graph declares a provider with that token.\n` +
    `Fix: override the token the application really uses (check imports and spelling), or add the provider with Test.createTestingModule({ providers }).`
  );
}
