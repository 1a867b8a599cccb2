import './peers';
import { format } from 'node:util';
import { Global, Module, type LoggerService } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { BootstrapError, BootstrapErrorCode } from '../errors';
import type { BuiltApplication } from '../host';
import { MCP_NEST_CLI_BUILD, type NestCliBuild } from './cli-build';

/** @internal A Nest application the CLI booted, with the MCP server it serves; `close()` closes the Nest application. */
export interface NestCliApplication extends BuiltApplication {
  close(): Promise<void>;
}

/**
 * @internal What `mcp-reflect inspect | call | dev | validators` do with a Nest root module (`@Module()` of
 * @nestjs/common importing `McpModule.forRoot()` of mcp-reflect/nest): boot it as an application context, as a
 * stdio `main.ts` does (no HTTP adapter, so McpModule mounts no route), with the CLI's build options handed to
 * McpService through MCP_NEST_CLI_BUILD, and give back the MCP server McpService built. Nest's logger writes only
 * warnings and errors, on stderr: stdout carries the command's output (or a stdio server's messages).
 */
export async function openNestApplication(root: Function, build: Omit<NestCliBuild, 'built'>): Promise<NestCliApplication> {
  const servers: { built: BuiltApplication; name: string | undefined }[] = [];
  const options: NestCliBuild = { ...build, built: (built, name) => void servers.push({ built, name }) };

  // The build options reach McpService (in the global McpModule) from a global module beside the user's root.
  @Global()
  @Module({ providers: [{ provide: MCP_NEST_CLI_BUILD, useValue: options }], exports: [MCP_NEST_CLI_BUILD] })
  class McpCliBuildModule {}
  @Module({ imports: [root as never, McpCliBuildModule] })
  class McpCliRootModule {}

  const logger = new StderrLogger();
  // abortOnError: false, so that a failing bootstrap is thrown to the CLI (which prints it once) instead of exiting.
  const context = await NestFactory.createApplicationContext(McpCliRootModule, { logger, abortOnError: false });
  logger.booting = false;
  const fail = async (cause: string, fix: string): Promise<never> => {
    await context.close();
    throw new BootstrapError(BootstrapErrorCode.McpModuleMissing, `Cannot run the MCP server of the Nest module ${root.name}: ${cause}.\nFix: ${fix}.`);
  };
  if (servers.length === 0) {
    await fail("it serves no MCP server (it does not import McpModule.forRoot() of 'mcp-reflect/nest', nor does a module it imports)", `import McpModule.forRoot({ name, version }) from 'mcp-reflect/nest' in ${root.name}`);
  }
  if (servers.length > 1) {
    const names = servers.map((s) => (s.name === undefined ? 'an unnamed one' : `'${s.name}'`)).join(', ');
    await fail(`it serves several MCP servers (${names}), and the CLI runs one`, 'point the CLI at an entry whose root module imports one McpModule.forRoot() (a module of its own for each server)');
  }
  const { built } = servers[0]!;
  return { app: built.app, registries: built.registries, close: () => context.close() };
}

/**
 * Nest's logger under the CLI: warnings and errors on stderr, the rest (Nest's start-up lines) dropped. While the
 * context boots, errors are dropped too: the one that fails the bootstrap is thrown, and the CLI prints it.
 */
class StderrLogger implements LoggerService {
  booting = true;
  log(): void {}
  debug(): void {}
  verbose(): void {}
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('WARN', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    if (!this.booting) this.write('ERROR', message, rest);
  }
  fatal(message: unknown, ...rest: unknown[]): void {
    this.write('FATAL', message, rest);
  }
  private write(level: string, message: unknown, rest: unknown[]): void {
    // Nest passes the context (the logger's name) last, and a stack before it for errors.
    const context = typeof rest.at(-1) === 'string' ? `[${rest.pop() as string}] ` : '';
    process.stderr.write(`[Nest] ${level} ${context}${format(message)}${rest.length > 0 ? `\n${rest.map((r) => format(r)).join('\n')}` : ''}\n`);
  }
}
