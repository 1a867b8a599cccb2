import 'reflect-metadata';
import {
  BootstrapError,
  McpFactory,
  McpModule,
  Module,
  type McpApplication,
  type ModuleImport,
  type ModuleOptions,
  type Provider,
} from 'mcp-reflect';

/** A root module named `name` that imports McpModule and whatever `options` adds. */
export function testModule(name: string, options: ModuleOptions = {}): Function {
  @Module({
    imports: [McpModule.forRoot({ name, version: '1.0.0' }), ...(options.imports ?? [])],
    providers: options.providers,
    exports: options.exports,
  })
  class AppModule {}
  return AppModule;
}

/** Bootstraps `root`, expecting it to fail with a BootstrapError, and returns that error. */
export async function failureOf(root: ModuleImport): Promise<BootstrapError> {
  const error: unknown = await McpFactory.create(root).then(
    () => new Error('expected McpFactory.create() to fail'),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BootstrapError);
  expect((error as BootstrapError).name).toBe('BootstrapError');
  return error as BootstrapError;
}

/** Bootstraps an application around `providers`, expecting it to fail. */
export function bootstrapFailure(...providers: Provider[]): Promise<BootstrapError> {
  return failureOf(testModule('errors', { providers }));
}

/** Applications created through `bootstrap()` are closed after each test. */
export function trackApplications(): (root: ModuleImport) => Promise<McpApplication> {
  const open: McpApplication[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((app) => app.close()));
  });
  return async (root) => {
    const app = await McpFactory.create(root);
    open.push(app);
    return app;
  };
}
