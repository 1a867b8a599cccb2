import 'reflect-metadata';
import { Injectable, Param, Tool } from 'mcp-reflect';

/** `add(a, b)`, shared by the mcp-reflect servers (their `book` tools differ in how the DTO is declared). */
@Injectable()
export class AddTools {
  @Tool({ description: 'Add two numbers' })
  add(@Param() a: number, @Param() b: number): string {
    return String(a + b);
  }
}

/**
 * A provider class with `count` trivial tools `tool_i(n: number)`, decorated as TypeScript would; `injectable`
 * is the class decorator of its container (mcp-reflect's `@Injectable()`, or Nest's in a Nest application).
 */
export function extraTools(count: number, injectable: ClassDecorator = Injectable()): Function {
  class ExtraTools {}
  for (let i = 0; i < count; i++) {
    const name = `tool_${i}`;
    Object.defineProperty(ExtraTools.prototype, name, { value: (n: number) => String(n), writable: true, configurable: true });
    Reflect.defineMetadata('design:paramtypes', [Number], ExtraTools.prototype, name);
    Param('n')(ExtraTools.prototype, name, 0);
    Tool({ description: `Trivial tool ${i}` })(ExtraTools.prototype, name, Object.getOwnPropertyDescriptor(ExtraTools.prototype, name)!);
  }
  injectable(ExtraTools);
  return ExtraTools;
}
