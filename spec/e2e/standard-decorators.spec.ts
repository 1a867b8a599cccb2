import { transformSync } from '@swc/core';
import { BootstrapErrorCode } from 'mcp-reflect';

/**
 * A project with `experimentalDecorators` off gets standard (TC39) decorators: compiled that way, the
 * decorators fail at once with a fix, instead of a server that starts with no tools.
 */
function runStandard(source: string): unknown {
  const { code } = transformSync(source, {
    swcrc: false,
    module: { type: 'commonjs' },
    jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true }, transform: { decoratorVersion: '2022-03' } },
  });
  return new Function('require', 'exports', code)(require, {});
}

describe('standard (TC39) decorators', () => {
  it.each([
    ['@Tool()', "class Calc { @Tool() add(a: number) { return a; } }", "Cannot use @Tool() on method 'add': it ran as a standard (TC39) decorator"],
    ['@Injectable()', '@Injectable() class Service {}', "Cannot use @Injectable() on class 'Service': it ran as a standard (TC39) decorator"],
    ['@Module()', '@Module({}) class AppModule {}', "Cannot use @Module() on class 'AppModule'"],
    ['@Field()', "class Dto { @Field({ description: 'x' }) name!: string; }", "Cannot use @Field() on field 'name'"],
    ['@Resource()', "class R { @Resource('a://b') read() { return ''; } }", "Cannot use @Resource() on method 'read'"],
    ['@UseGuards()', 'class G { canActivate() { return true; } } @UseGuards(G) class T {}', "Cannot use @UseGuards() on class 'T'"],
  ])('%s fails with the cause and the fix', (_name, snippet, message) => {
    const source = `const { Tool, Injectable, Module, Field, Resource, UseGuards } = require('mcp-reflect');\n${snippet}`;
    expect(() => runStandard(source)).toThrow(expect.objectContaining({ code: BootstrapErrorCode.StandardDecorators }));
    expect(() => runStandard(source)).toThrow(message);
    expect(() => runStandard(source)).toThrow(/Fix: set "experimentalDecorators": true and "emitDecoratorMetadata": true/);
  });
});
